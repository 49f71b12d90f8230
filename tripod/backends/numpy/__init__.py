"""The numpy backend: the reference every other backend is checked against (inference only)."""

import numpy as np

from tripod.backends.numpy import core, hooks, image, linalg, math, nn, numpy_ops, random
from tripod.backends.numpy.variables import Variable

NAME = "numpy"

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
NATIVE_ERRORS = (np.linalg.LinAlgError,)

__all__ = ["KIND_MODULES", "NAME", "NATIVE_ERRORS", "Variable"]
