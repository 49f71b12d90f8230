"""Every fast path of the backends in one place: the hooks that replace a general computation
with a faster kernel, each named beside the general path it replaces.

A backend may implement any of these hooks with its framework's fused kernels (torch has most of
them); every other backend, and every backend when `TRIPOD_FAST_PATHS=0` is set before tripod is
imported, runs the general path. Results agree within float rounding either way, so the tests
hold with the fast paths off (CI runs the layer, optimizer, trainer and callback tests so on torch).

The step machinery has fast paths of its own (`MACHINERY`): not hooks, but branches in the
steps the backends compile, read when a step is made; off, each step takes the general path.
So do the loops and a few ops (`SHORTCUTS`): branches that skip or reuse work, read where they
run; off, the loop or op does the work every time.
"""

import os

#: hook -> the general path it replaces (in `default_hooks.py` or `derived/hooks.py`)
FAST_PATHS = {
    "fuse_variables": "each variable updated on its own (no shared flat storage)",
    "optimizer_kernel": "the optimizer's rule, `update_step`, written in tripod.ops",
    "conv_with_bias": "ops.conv, then the bias added",
    "matmul_with_bias": "ops.matmul, then the bias added",
    "update_average": "the moving average assigned through tripod.ops",
    "batch_norm_training": "ops.moments, then the normalization in tripod.ops",
    "lstm_sequence": "one input matmul, then ops.scan over the recurrent half of the LSTM cell",
    "gru_sequence": "the GRU layer scanning its cell",
}

#: speed-up of the step machinery -> the general path it replaces (and where the branch lives)
MACHINERY = {
    "fused_steps": "one compiled call per batch, where an execution's batches would run in one "
    "compiled loop (`run_many` of the jax and tensorflow steps)",
    "staged_input": "each execution's batches sent to the device when it runs, where they would "
    "be sent while the execution before runs (`stages` of the jax step, `steps.ahead`, `Feed`)",
    "held_step_state": "every call of the jax training step reads the variables and writes "
    "their new values back, where the step would hold them on the device between calls and "
    "write them back when read (`holds` of `TrainStep`)",
}

#: short cut in a loop or an op -> the general path it replaces (and where the branch lives)
SHORTCUTS = {
    "skipped_batch_hooks": "every callback's batch hooks called at every execution, where the "
    "loops skip the calls when no callback overrides them (`CallbackList.needs_batch_hooks`)",
    "memoized_structure": "a layer's sub-layers, variables and losses found by scanning its "
    "attributes at every lookup, where the loops let a layer keep that scan until its structure "
    "changes (`frozen_structure`)",
    "in_place_intermediates": "each step of torch's normalization into a new tensor, where, with "
    "autograd recording nothing, the last writes into a fresh intermediate "
    "(`_writable_in_place` in `backends/torch/nn.py`)",
}


def enabled():
    """Whether the backends' fast paths are on: unless the environment sets
    `TRIPOD_FAST_PATHS=0` (read when a backend is assembled, at import, and when a step is
    made)."""
    return os.environ.get("TRIPOD_FAST_PATHS", "1").strip() != "0"
