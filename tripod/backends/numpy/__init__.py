"""The numpy backend: the reference every other backend is checked against (inference only)."""

import numpy as np

from tripod.backends.common import assemble
from tripod.backends.numpy.variables import Variable

NAME = "numpy"

#: op kind (as in `tripod.backends.contract`) -> the module implementing it
KIND_MODULES = assemble.kind_modules(__name__)

#: framework exceptions that mean "bad argument"; the assembler reports them as ValueError
NATIVE_ERRORS = (np.linalg.LinAlgError,)

__all__ = ["KIND_MODULES", "NAME", "NATIVE_ERRORS", "Variable"]
