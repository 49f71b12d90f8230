"""`tripod.mixed_precision`: dtype policies for low-precision compute."""

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
