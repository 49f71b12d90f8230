"""The torch backend: tripod's ops on PyTorch tensors, run eagerly."""

import torch

from tripod.backends.common import assemble
from tripod.backends.torch.variables import Variable

NAME = "torch"

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
        "conv",
        "ctc",
        "math",
        "linalg",
        "image",
        "random",
        "hooks",
    ],
)

#: framework exceptions that mean "bad argument" (torch raises NotImplementedError for a dtype
#: an op has no kernel for); the assembler reports them as ValueError
NATIVE_ERRORS = (torch.linalg.LinAlgError, NotImplementedError)

__all__ = ["NAME", "NATIVE_ERRORS", "OP_MODULES", "Variable"]
