"""The jax backend: ops on `jax.Array`s, traceable under `jax.jit`.

64-bit types are enabled so that float64/int64 tensors are real, as on the other backends;
every op therefore passes explicit dtypes, so nothing silently becomes 64-bit.
"""

import jax

jax.config.update("jax_enable_x64", True)

from tripod.backends.jax import core, hooks, image, linalg, math, nn, numpy_ops, random
from tripod.backends.jax.core import Variable

NAME = "jax"

#: op kind (as in `tripod.backends.contract`) -> the module implementing it
KIND_MODULES = {
    "core": core,
    "numpy": numpy_ops,
    "nn": nn,
    "math": math,
    "linalg": linalg,
    "image": image,
    "random": random,
    "hooks": hooks,
}

#: framework exceptions that mean "bad argument"; the assembler reports them as ValueError
NATIVE_ERRORS = ()

__all__ = ["KIND_MODULES", "NAME", "NATIVE_ERRORS", "Variable"]
