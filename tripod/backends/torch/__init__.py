"""The torch backend: tripod's ops on PyTorch tensors, run eagerly."""

import torch

from tripod.backends.torch import core, hooks, image, linalg, math, nn, numpy_ops, random
from tripod.backends.torch.variables import Variable

NAME = "torch"

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

#: framework exceptions that mean "bad argument" (torch raises NotImplementedError for a dtype
#: an op has no kernel for); the assembler reports them as ValueError
NATIVE_ERRORS = (torch.linalg.LinAlgError, NotImplementedError)

__all__ = ["KIND_MODULES", "NAME", "NATIVE_ERRORS", "Variable"]
