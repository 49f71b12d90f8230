#!/usr/bin/env bash
# Run the test suite once per backend (numpy, jax, torch, tensorflow), one process each.
# Usage: scripts/test_matrix.sh [pytest args...]   Backends: TRIPOD_TEST_BACKENDS="jax torch".
set -u
cd "$(dirname "$0")/.."
backends=${TRIPOD_TEST_BACKENDS:-"numpy jax torch tensorflow"}
failed=()
for backend in $backends; do
  echo "=== tests on the $backend backend ==="
  start=$SECONDS
  TRIPOD_BACKEND=$backend python -m pytest -q -p no:cacheprovider "$@" || failed+=("$backend")
  echo "=== $backend: $((SECONDS - start)) s ==="
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED on: ${failed[*]}"
  exit 1
fi
echo "all backends passed: $backends"
