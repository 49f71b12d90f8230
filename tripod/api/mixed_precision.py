"""`tripod.mixed_precision`: dtype policies for low-precision compute."""

from tripod.training.optimizers import LossScaleOptimizer
from tripod.layers.dtype_policies import (
    DTypePolicy,
    Policy,
    dtype_policy,
    global_policy,
    set_dtype_policy,
    set_global_policy,
)

__all__ = [
    "LossScaleOptimizer",
    "DTypePolicy",
    "Policy",
    "dtype_policy",
    "global_policy",
    "set_dtype_policy",
    "set_global_policy",
]
