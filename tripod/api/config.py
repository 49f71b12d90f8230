"""`tripod.config`: the backend in use and the global numeric settings."""

from tripod.backends.config import (
    backend,
    epsilon,
    floatx,
    image_data_format,
    set_epsilon,
    set_floatx,
    set_image_data_format,
)

__all__ = [
    "backend",
    "epsilon",
    "floatx",
    "image_data_format",
    "set_epsilon",
    "set_floatx",
    "set_image_data_format",
]
