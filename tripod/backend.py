"""`tripod.backend`: dtype helpers and settings shared by every backend; the code lives in
tripod/backends/ (config.py, dtypes.py, common/)."""

from tripod.backends.common.keras_tensor import is_keras_tensor
from tripod.backends.common.stateless import StatelessScope
from tripod.backends.config import (
    backend,
    epsilon,
    floatx,
    image_data_format,
    set_epsilon,
    set_floatx,
    set_image_data_format,
)
from tripod.backends.dtypes import (
    is_complex,
    is_float,
    is_int,
    result_type,
    standardize_dtype,
)
from tripod.backends.dtypes import is_float as is_float_dtype  # Keras's name
from tripod.backends.dtypes import is_int as is_int_dtype  # Keras's name
from tripod.layers.naming import get_uid
from tripod.training.session import clear_session

__all__ = [
    "StatelessScope",
    "backend",
    "clear_session",
    "epsilon",
    "floatx",
    "get_uid",
    "image_data_format",
    "is_complex",
    "is_float",
    "is_float_dtype",
    "is_int",
    "is_int_dtype",
    "is_keras_tensor",
    "result_type",
    "set_epsilon",
    "set_floatx",
    "set_image_data_format",
    "standardize_dtype",
]
