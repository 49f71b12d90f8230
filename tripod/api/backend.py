"""`tripod.backend`: dtype helpers and settings shared by every backend."""

from tripod.backends.common.stateless import StatelessScope
from tripod.backends.config import backend, epsilon, floatx, image_data_format
from tripod.backends.dtypes import is_complex, is_float, is_int, result_type, standardize_dtype

__all__ = [
    "StatelessScope",
    "backend",
    "epsilon",
    "floatx",
    "image_data_format",
    "is_complex",
    "is_float",
    "is_int",
    "result_type",
    "standardize_dtype",
]
