"""The torch backend: tripod's ops on PyTorch tensors, run eagerly."""

import torch

from tripod.backends.common import assemble
from tripod.backends.torch.variables import Variable

NAME = "torch"

#: op kind (as in `tripod.backends.contract`) -> the module implementing it
KIND_MODULES = assemble.kind_modules(__name__)

#: framework exceptions that mean "bad argument" (torch raises NotImplementedError for a dtype
#: an op has no kernel for); the assembler reports them as ValueError
NATIVE_ERRORS = (torch.linalg.LinAlgError, NotImplementedError)

__all__ = ["KIND_MODULES", "NAME", "NATIVE_ERRORS", "Variable"]
