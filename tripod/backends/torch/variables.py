"""The torch backend's `Variable`: a `torch.nn.Parameter` that torch functions accept directly."""

import torch

from tripod.backends.common import variables
from tripod.backends.torch.core import _DEVICE, _unwrap, convert_to_numpy, convert_to_tensor


class Variable(variables.Variable):
    """A variable holding a `torch.nn.Parameter`; torch functions accept it directly."""

    def _to_native(self, value):
        return convert_to_tensor(value, dtype=self._dtype)

    def _store(self, native):
        data = native.detach().to(_DEVICE, copy=True)
        self._param = torch.nn.Parameter(data, requires_grad=self._wants_grad(data))

    def _wants_grad(self, data):
        return self._trainable and (data.is_floating_point() or data.is_complex())

    def _read(self):
        return self._param

    def _write(self, native):
        _outside_autograd(self._param.copy_, native)

    def _update_in_place(self, kind, native):
        return _outside_autograd(self._param.add_ if kind == "add" else self._param.sub_, native)

    @property
    def trainable(self):
        """Whether optimizers update this variable (and autograd tracks it)."""
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)
        self._param.requires_grad_(self._wants_grad(self._param))

    def numpy(self):
        """A copy of the current value as a NumPy array."""
        return convert_to_numpy(self.value)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return func(*_unwrap(args), **_unwrap(kwargs or {}))


def _outside_autograd(update, native):
    """An in-place `update(native)` of a parameter, which autograd must not record (optimizer
    updates already run under `no_grad`, so the context is entered only when needed)."""
    if not torch.is_grad_enabled():
        return update(native)
    with torch.no_grad():
        return update(native)
