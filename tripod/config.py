"""`tripod.config`: the backend in use, global numeric settings, the dtype policy and Keras's
runtime switches (logging, traceback filtering, flash attention, debugging caps); the code lives in
tripod/backends/config.py."""

from tripod.backends.config import (
    backend,
    disable_flash_attention,
    disable_interactive_logging,
    disable_traceback_filtering,
    enable_flash_attention,
    enable_interactive_logging,
    enable_traceback_filtering,
    epsilon,
    floatx,
    image_data_format,
    is_flash_attention_enabled,
    is_interactive_logging_enabled,
    is_nnx_enabled,
    is_traceback_filtering_enabled,
    max_epochs,
    max_steps_per_epoch,
    set_backend,
    set_epsilon,
    set_floatx,
    set_image_data_format,
    set_max_epochs,
    set_max_steps_per_epoch,
)
from tripod.layers.dtype_policies import dtype_policy, set_dtype_policy
from tripod.saving.serialization import enable_unsafe_deserialization

__all__ = [
    "backend",
    "disable_flash_attention",
    "disable_interactive_logging",
    "disable_traceback_filtering",
    "dtype_policy",
    "enable_flash_attention",
    "enable_interactive_logging",
    "enable_traceback_filtering",
    "enable_unsafe_deserialization",
    "epsilon",
    "floatx",
    "image_data_format",
    "is_flash_attention_enabled",
    "is_interactive_logging_enabled",
    "is_nnx_enabled",
    "is_traceback_filtering_enabled",
    "max_epochs",
    "max_steps_per_epoch",
    "set_backend",
    "set_dtype_policy",
    "set_epsilon",
    "set_floatx",
    "set_image_data_format",
    "set_max_epochs",
    "set_max_steps_per_epoch",
]
