"""The torch backend's `Variable`: a `torch.nn.Parameter` that torch functions accept directly."""

import torch

from tripod.backends.common import variables
from tripod.backends.torch.core import convert_to_numpy
from tripod.backends.torch.tensors import (
    convert_to_tensor,
    current_device,
    from_numpy,
    unwrap_variables,
)


class Variable(variables.Variable):
    """A variable holding a `torch.nn.Parameter`; torch functions accept it directly."""

    _backend_name = "torch"

    def _to_native(self, value):
        return convert_to_tensor(value, dtype=self._dtype)

    def _store(self, native):
        data = native.detach().to(current_device(), copy=True)
        self._param = torch.nn.Parameter(data, requires_grad=self._wants_grad(data))
        self._shared = False

    def _share(self, storage):
        """Hold `storage` (a tensor of this variable's shape, already holding its value) as its
        parameter from now on, so that updates of a larger tensor `storage` views reach it."""
        self._param = torch.nn.Parameter(storage, requires_grad=self._param.requires_grad)
        self._shared = True

    def _wants_grad(self, data):
        return self._trainable and (data.is_floating_point() or data.is_complex())

    def _read(self):
        return self._param

    def _write(self, native):
        target = self._assign_target()
        outside_autograd(target, target.copy_, native)

    def _assign_target(self):
        """The tensor an assign writes into. A view of a fused buffer is written through `.data`:
        the views share one autograd version counter, so assigning one (a kernel masked in
        `call`) would otherwise invalidate the values autograd saved of its siblings."""
        return self._param.data if self._shared else self._param

    def assign(self, value):
        if self._exact_host_array(value):  # a metric reset: copied straight from host memory
            native = from_numpy(value)
            self._write(native)
            return native  # what the shared assign returns: the value given, not the live parameter
        return super().assign(value)

    def _update_in_place(self, kind, value):
        param = self._param
        # A Python float goes to the kernel as it is (torch rounds it to a float param's
        # dtype, as the conversion would), saving a tensor construction per update.
        native = (
            value
            if type(value) is float and param.dtype.is_floating_point
            else self._to_native(value)
        )
        return outside_autograd(param, param.add_ if kind == "add" else param.sub_, native)

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
        return func(*unwrap_variables(args), **unwrap_variables(kwargs or {}))


def fuse(variables, name):
    """A flat variable whose storage `variables` come to share (see the `fuse_variables` hook);
    None for mixed dtypes, a variable that already shares storage, or inside a `torch.compile`
    trace (which cannot create parameters without breaking the step's graph; its compiler fuses
    the elementwise updates itself)."""
    if torch.compiler.is_compiling():
        return None
    params = [v._param for v in variables]
    if len({p.dtype for p in params}) != 1 or any(v._shared for v in variables):
        return None
    fused = Variable(
        torch.cat([p.detach().reshape(-1) for p in params]),
        trainable=False,
        dtype=variables[0].dtype,
        autocast=False,
        name=name.rpartition("/")[2],
        path=name,
    )
    flat, start = fused._param.detach(), 0
    for variable, param in zip(variables, params):
        variable._share(flat[start : start + param.numel()].view(param.shape))
        start += param.numel()
    fused._shared = True
    return fused


def zero_grad(variables, set_to_none=True):
    """Clear the gradients `backward()` accumulated on the variables' parameters (as
    `torch.nn.Module.zero_grad` does): dropped, or zeroed in place with `set_to_none=False`."""
    for variable in variables:
        param = variable._param
        if param.grad is None:
            continue
        if set_to_none:
            param.grad = None
        else:
            param.grad.detach_().zero_()


def parameters(variables):
    """The `torch.nn.Parameter` each variable holds: what forward passes read, so a torch
    optimizer's in-place steps on them are the variables' new values."""
    return [variable._param for variable in variables]


def outside_autograd(param, update, native):
    """An in-place `update(native)` of `param`, which autograd must not record. The context is
    entered only when autograd could record it: optimizer updates already run under `no_grad`,
    and metric updates touch no tensor that requires grad."""
    if not (
        torch.is_grad_enabled() and (param.requires_grad or getattr(native, "requires_grad", False))
    ):
        return update(native)
    with torch.no_grad():
        return update(native)
