#!/usr/bin/env bash
# Run the ops contract and the core layer, optimizer and fit tests on the jax backend, in one
# process, on whatever accelerator JAX sees (a TPU, a GPU; the CPU where there is none), and
# print the counts. CI runs the same tests on the CPU in its matrix.
# Usage: scripts/test_accelerator.sh [pytest args...]
#   Matmuls and convolutions run at JAX's "highest" precision here
#   (JAX_DEFAULT_MATMUL_PRECISION): a TPU's default passes float32 operands through bfloat16,
#   outside the contract's float32 tolerances. docs/accelerators.md lists what differs there.
#   The parity cases compile each op call whole, all ahead on the host's cores
#   (tests/accelerator.py): every eager op would compile a program of its own there.
#   TRIPOD_ACCELERATOR_EAGER=1 runs them op by op instead, as on the CPU.
set -u
cd "$(dirname "$0")/.."
export TRIPOD_BACKEND=jax
export JAX_DEFAULT_MATMUL_PRECISION=${JAX_DEFAULT_MATMUL_PRECISION:-highest}
python -c 'import jax; print("devices:", jax.devices())'
python -m pytest -q -p no:cacheprovider \
  -m "not multi_device and not slow and not serial and not notebook" \
  --durations=10 -o "addopts=-ra" \
  tests/backends/ops tests/backends/test_dtypes.py tests/backends/common/test_derived.py \
  tests/backends/common/test_eager_branches.py tests/layers/core tests/layers/test_layer.py \
  tests/training/optimizers tests/training/test_trainer.py tests/training/test_models.py \
  tests/training/test_steps_per_execution.py "$@"
