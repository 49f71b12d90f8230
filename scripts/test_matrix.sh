#!/usr/bin/env bash
# Run the test suite once per backend (numpy, jax, torch, tensorflow), one process each.
# Usage: scripts/test_matrix.sh [pytest args...]   Backends: TRIPOD_TEST_BACKENDS="jax torch".
# Tests run on TRIPOD_TEST_WORKERS pytest-xdist workers (default 2, one per core here). Then the
# `multi_device` tests (distributed runs in subprocesses) run in their own step, one at a time,
# under a hard limit of TRIPOD_MULTI_DEVICE_LIMIT seconds per backend (default 600).
set -u
cd "$(dirname "$0")/.."
backends=${TRIPOD_TEST_BACKENDS:-"numpy jax torch tensorflow"}
failed=()
for backend in $backends; do
  echo "=== tests on the $backend backend ==="
  start=$SECONDS
  TRIPOD_BACKEND=$backend python -m pytest -q -p no:cacheprovider -n "${TRIPOD_TEST_WORKERS:-2}" "$@" \
    || failed+=("$backend")
  if [ "$backend" != numpy ]; then
    echo "=== multi-device tests on the $backend backend ==="
    TRIPOD_BACKEND=$backend timeout -k 10 "${TRIPOD_MULTI_DEVICE_LIMIT:-600}" \
      python -m pytest -q -p no:cacheprovider -n 0 -m multi_device "$@" \
      || failed+=("$backend (multi-device)")
  fi
  echo "=== $backend: $((SECONDS - start)) s ==="
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED on: ${failed[*]}"
  exit 1
fi
echo "all backends passed: $backends"
