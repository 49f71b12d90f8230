"""The numpy backend: the reference every other backend is checked against (inference only)."""

import numpy as np

from tripod.backends.common import assemble
from tripod.backends.numpy.variables import Variable

NAME = "numpy"

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
        "math",
        "linalg",
        "image",
        "random",
        "hooks",
    ],
)

#: framework exceptions that mean "bad argument"; the assembler reports them as ValueError
NATIVE_ERRORS = (np.linalg.LinAlgError,)

__all__ = ["NAME", "NATIVE_ERRORS", "OP_MODULES", "Variable"]
