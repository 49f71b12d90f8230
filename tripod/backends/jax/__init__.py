"""The jax backend: ops on `jax.Array`s, traceable under `jax.jit`.

64-bit types are enabled so that float64/int64 tensors are real, as on the other backends;
every op therefore passes explicit dtypes, so nothing silently becomes 64-bit.
"""

import jax

jax.config.update("jax_enable_x64", True)

from tripod.backends.common import assemble
from tripod.backends.jax.core import Variable

NAME = "jax"

#: op kind (as in `tripod.backends.contract`) -> the module implementing it
KIND_MODULES = assemble.kind_modules(__name__)

#: framework exceptions that mean "bad argument"; the assembler reports them as ValueError
NATIVE_ERRORS = ()

__all__ = ["KIND_MODULES", "NAME", "NATIVE_ERRORS", "Variable"]
