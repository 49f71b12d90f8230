#!/usr/bin/env bash
# Run the test suite once per backend (numpy, jax, torch, tensorflow) and end with a table of
# seconds per step and the 20 slowest tests of each backend.
# Usage: scripts/test_matrix.sh [--full] [pytest args...]
#   --full                  also run the `slow` tier (tests/README.md says what belongs there)
#   TRIPOD_TEST_BACKENDS    the backends to run (default "numpy jax torch tensorflow")
#   TRIPOD_TEST_WORKERS     pytest-xdist workers for the main suite (default 3 on the 2 cores)
#   TRIPOD_TEST_NOTEBOOKS   the backends that execute the tutorial notebooks (default: the three
#                           training backends; CI: torch)
#   TRIPOD_MULTI_DEVICE_LIMIT  hard limit in seconds of each backend's multi-device step (600)
#   TRIPOD_TEST_FAST_PATHS_OFF  the backends that also run the layer, optimizer, trainer and callback tests
#                           with every fast path off (TRIPOD_FAST_PATHS=0; default and CI: torch)
# Per backend: the main suite on the workers, then the notebooks where listed, then the
# `multi_device` tests (distributed runs in subprocesses) one at a time under the hard limit.
# Tests marked `serial` (subprocess launches, thread-count checks) run after the main suite on
# one worker.
set -u
cd "$(dirname "$0")/.."
source scripts/steps.sh

tier="not slow"
if [ "${1:-}" = "--full" ]; then
  tier=""
  shift
fi
and_tier=${tier:+ and $tier}
backends=${TRIPOD_TEST_BACKENDS:-"numpy jax torch tensorflow"}
logs=${TRIPOD_TEST_LOGS:-$(mktemp -d)}  # each backend's output and junit XML (test times)
mkdir -p "$logs"
# Bytecode written once and reused by every process of the run (workers, launched subprocesses):
# where the environment turns it off, each worker compiled tripod and the tests again, 9 s of
# its collection
unset PYTHONDONTWRITEBYTECODE
# One run's jax compilations, shared by its processes (both workers, notebooks, launched runs)
export JAX_COMPILATION_CACHE_DIR=${JAX_COMPILATION_CACHE_DIR:-$logs/jax-compilation-cache}
export JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS=0 JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES=-1
# XLA without LLVM's optimisations, its expensive passes or its fusion emitters: the thousands
# of small programs of a run (jax compiles every eager op) compile 30%, then 13%, then 30% faster
# (tests/README.md); the tests check results, the benchmarks speed
export XLA_FLAGS="${XLA_FLAGS:-} --xla_backend_optimization_level=0 \
--xla_llvm_disable_expensive_passes=true --xla_cpu_use_fusion_emitters=false"
failed=()

pytest_on() {  # pytest_on BACKEND ARGS...: one pytest process on BACKEND
  local backend=$1
  shift
  TRIPOD_BACKEND=$backend python -m pytest -q -p no:cacheprovider "$@"
}

suite() {  # the main suite of one backend, its durations kept for the closing table
  local backend=$1
  shift
  pytest_on "$backend" \
    -n "${TRIPOD_TEST_WORKERS:-3}" --dist worksteal --durations=20 --junitxml="$logs/$backend.xml" \
    -m "not multi_device and not serial and not notebook$and_tier" "$@" 2>&1 | tee "$logs/$backend"
  return "${PIPESTATUS[0]}"
}

serial() {  # the `serial` tests of one backend, one at a time (collects only their files)
  local backend=$1
  shift
  pytest_on "$backend" -n 0 -m "serial$and_tier" $(grep -rl --include='*.py' 'mark.serial' tests) "$@"
}

runs_notebooks() {  # whether TRIPOD_TEST_NOTEBOOKS lists the backend
  [[ " ${TRIPOD_TEST_NOTEBOOKS:-jax torch tensorflow} " == *" $1 "* ]]
}

notebooks() {  # the tutorial notebooks on one backend, two at a time
  local backend=$1
  shift
  pytest_on "$backend" -n 2 -m "notebook$and_tier" tests/examples/test_notebooks.py "$@"
}

runs_fast_paths_off() {  # whether TRIPOD_TEST_FAST_PATHS_OFF lists the backend
  [[ " ${TRIPOD_TEST_FAST_PATHS_OFF:-torch} " == *" $1 "* ]]
}

fast_paths_off() {  # the tests of the code the fast paths replace, with them off
  local backend=$1
  shift
  TRIPOD_FAST_PATHS=0 pytest_on "$backend" -n "${TRIPOD_TEST_WORKERS:-3}" --dist worksteal \
    -m "not multi_device and not serial and not notebook$and_tier" \
    tests/backends/common/test_fast_paths.py tests/layers/core tests/layers/convolution \
    tests/layers/normalization tests/layers/rnn tests/training/optimizers \
    tests/training/test_trainer.py tests/training/callbacks "$@"
}

multi_device() {  # the distributed runs of one backend, one at a time under a hard limit
  local backend=$1
  shift
  TRIPOD_BACKEND=$backend timeout -k 10 "${TRIPOD_MULTI_DEVICE_LIMIT:-600}" python -m pytest -q \
    -p no:cacheprovider -n 0 --durations=5 -m "multi_device$and_tier" \
    $(grep -rl --include='*.py' 'mark.multi_device' tests) "$@"
}

no_tests_ok() {  # run a pytest command; "no test collected" (exit 5) is a pass
  local status=0
  "$@" || status=$?
  [ "$status" -eq 0 ] || [ "$status" -eq 5 ]
}

for backend in $backends; do
  step "$backend: suite" suite "$backend" "$@" || failed+=("$backend")
  step "$backend: serial" no_tests_ok serial "$backend" "$@" \
    || failed+=("$backend (serial)")
  if [ "$backend" = numpy ]; then continue; fi  # inference-only: no notebook, no distributed fit
  if runs_notebooks "$backend"; then
    step "$backend: notebooks" no_tests_ok notebooks "$backend" "$@" || failed+=("$backend (notebooks)")
  fi
  if runs_fast_paths_off "$backend"; then
    step "$backend: fast paths off" fast_paths_off "$backend" "$@" \
      || failed+=("$backend (fast paths off)")
  fi
  step "$backend: multi-device" no_tests_ok multi_device "$backend" "$@" \
    || failed+=("$backend (multi-device)")
done

rm -rf "$logs/jax-compilation-cache"  # this run's alone (a JAX_COMPILATION_CACHE_DIR given stays)
step_table
for backend in $backends; do
  echo "=== the 20 slowest tests on $backend ==="
  grep -E '^[0-9.]+s (setup|call|teardown) ' "$logs/$backend" || echo "(no durations recorded)"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED on: ${failed[*]}"
  exit 1
fi
echo "all backends passed: $backends"
