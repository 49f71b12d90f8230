"""`tripod.config`: the backend in use, global numeric settings and the dtype policy."""

from tripod.backends.config import (
    backend,
    epsilon,
    floatx,
    image_data_format,
    set_epsilon,
    set_floatx,
    set_image_data_format,
)
from tripod.layers.dtype_policies import dtype_policy, set_dtype_policy
from tripod.saving.serialization import enable_unsafe_deserialization

__all__ = [
    "backend", "dtype_policy", "enable_unsafe_deserialization", "epsilon", "floatx",
    "image_data_format", "set_dtype_policy", "set_epsilon", "set_floatx", "set_image_data_format",
]  # fmt: skip
