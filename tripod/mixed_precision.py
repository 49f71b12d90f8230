"""`tripod.mixed_precision`: dtype policies for low-precision compute; the code lives in
tripod/layers/dtype_policies.py and tripod/training/optimizers/loss_scale_optimizer.py."""

from tripod.layers.dtype_policies import (
    DTypePolicy,
    Policy,
    dtype_policy,
    global_policy,
    set_dtype_policy,
    set_global_policy,
)
from tripod.training.optimizers import LossScaleOptimizer

__all__ = [
    "DTypePolicy",
    "LossScaleOptimizer",
    "Policy",
    "dtype_policy",
    "global_policy",
    "set_dtype_policy",
    "set_global_policy",
]
