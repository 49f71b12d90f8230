"""The jax backend: ops on `jax.Array`s, traceable under `jax.jit`.

tripod leaves JAX's global settings alone. Without JAX's 64-bit mode (its default) a 64-bit
dtype is stored as its 32-bit counterpart, as in Keras; with `jax_enable_x64` turned on by the
user, 64-bit tensors are real (`core.np_dtype` decides, per call).
TRIPOD_NUM_CPU_DEVICES=N gives jax N CPU devices (unless JAX_NUM_CPU_DEVICES says already), so
that `tripod.distribution` runs on several devices in one process.
"""

import os

import jax


def _set_cpu_devices():
    """Give jax TRIPOD_NUM_CPU_DEVICES CPU devices, before it makes them."""
    text = os.environ.get("TRIPOD_NUM_CPU_DEVICES")
    if not text or "JAX_NUM_CPU_DEVICES" in os.environ:
        return
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"TRIPOD_NUM_CPU_DEVICES must be a positive integer, received {text!r}.")
    try:
        jax.config.update("jax_num_cpu_devices", int(text))
    except RuntimeError:
        raise RuntimeError(
            f"TRIPOD_NUM_CPU_DEVICES={text}: jax has made its devices already (something computed "
            "with jax before tripod was imported); import tripod first, or set JAX_NUM_CPU_DEVICES."
        ) from None


_set_cpu_devices()

from tripod.backends.common import assemble
from tripod.backends.jax.core import Variable

NAME = "jax"

#: the modules whose `__all__` registers this backend's ops
OP_MODULES = assemble.op_modules(
    __name__,
    [
        "core",
        "elementwise",
        "reductions",
        "creation",
        "arrays",
        "nn",
        "batch_norm",
        "math",
        "linalg",
        "image",
        "random",
        "hooks",
        "trainer",
    ],
)

#: framework exceptions that mean "bad argument"; the assembler reports them as ValueError
NATIVE_ERRORS = ()

__all__ = ["NAME", "NATIVE_ERRORS", "OP_MODULES", "Variable"]
