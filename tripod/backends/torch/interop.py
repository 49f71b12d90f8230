"""Native torch state inside tripod: a `torch.nn.Module`'s parameters and buffers as tripod
variables that share their storage (what `TorchModuleWrapper` tracks)."""

import torch

from tripod.backends.torch.tensors import dtype_name
from tripod.backends.torch.variables import Variable


class AdoptedVariable(Variable):
    """A variable holding a module's own parameter (or a parameter aliasing a buffer's storage),
    so tripod assigns, optimizer steps and the module's in-place updates reach both.

    It counts as sharing storage: optimizers do not fuse it into a flat buffer (which would
    move its values away from the module)."""

    def _initial_native(self, value):
        return value

    def _store(self, native):
        if isinstance(native, torch.nn.Parameter):
            self._param = native
        else:  # a buffer: a parameter over the very same storage
            self._param = torch.nn.Parameter(native, requires_grad=False)
        self._param.requires_grad_(self._wants_grad(self._param))
        self._shared = True


def adopt_variable(native, name, trainable):
    """A tripod variable named `name` whose storage is `native`, a `torch.nn.Parameter` or a
    module buffer (any other tensor); a TypeError for anything that is not a torch tensor."""
    if not isinstance(native, torch.Tensor):
        raise TypeError(
            f"Cannot adopt {type(native).__name__} as variable {name!r}: the torch backend "
            "adopts a torch.nn.Parameter or a module buffer (a torch.Tensor)."
        )
    if native.requires_grad and not isinstance(native, torch.nn.Parameter):
        raise TypeError(
            f"Cannot adopt the tensor for variable {name!r}: it is the result of a computation "
            "autograd records, not a module's parameter or buffer."
        )
    return AdoptedVariable(native, dtype=dtype_name(native), trainable=trainable, name=name)
