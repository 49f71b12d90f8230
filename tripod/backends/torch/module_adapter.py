"""tripod variables as a `torch.nn.Module` for DDP and FSDP2 to wrap, and DDP's gradients.

tripod's layers are not `torch.nn.Module`s, while torch's data-parallel engines (DDP, FSDP2's
`fully_shard`) wrap one: `VariableModule` owns the variables' `torch.nn.Parameter`s as its own
(FSDP2 then registers parameters of its own in their place: `held` says which one is there now).
`Replicas` takes the gradients of a `value_and_grad` through DDP: the forward runs inside DDP's,
and `backward()` lets DDP's reducer average the gradients over the processes
(`torch.autograd.grad` would bypass it).
"""

import contextlib
import functools
import threading

import torch
from torch.nn.parallel import DistributedDataParallel


class VariableModule(torch.nn.Module):
    """A module whose parameters are the given `torch.nn.Parameter`s (the variables' own, not
    copies); its forward runs the closure it is given, so DDP's forward can wrap any computation."""

    def __init__(self, params):
        super().__init__()
        self._names = [f"p{index}" for index in range(len(params))]
        for name, param in zip(self._names, params):
            self.register_parameter(name, param)

    def held(self, index):
        """The parameter registered in place of the `index`-th given one now: FSDP2 registers
        its sharded parameter between forwards and the all-gathered one during a forward."""
        return getattr(self, self._names[index])

    def held_now(self):
        """Every parameter registered now, in the order they were given."""
        return [self.held(index) for index in range(len(self._names))]

    def forward(self, run):
        """What `run()` returns (DDP prepares its reducer around this call)."""
        return run()


class Replicas:
    """Gradients averaged over every process by DDP, one DDP wrapper per set of parameters a
    `value_and_grad` differentiates (made when first asked, the same way on every process)."""

    def __init__(self, device_ids):
        self._device_ids = device_ids
        self._wrappers = {}

    def value_and_grad(self, fn, args, kwargs, natives, has_aux):
        """`fn(*args, **kwargs)` and the gradients of its value (first output when `has_aux`)
        with respect to `natives`, averaged over the processes; zeros where it does not depend
        on one (a parameter autograd does not track)."""
        tracked = [native for native in natives if native.requires_grad]
        if not tracked:
            return fn(*args, **kwargs), [torch.zeros_like(native) for native in natives]
        for native in tracked:
            native.grad = None
        out = self._wrapper(tracked)(functools.partial(fn, *args, **kwargs))
        value = out[0] if has_aux else out
        value.backward(inputs=tracked)
        return out, [take_grad(native) for native in natives]

    def _wrapper(self, params):
        key = tuple(map(id, params))
        wrapper = self._wrappers.get(key)
        if wrapper is None:
            # static_graph: a step uses the same parameters each time (a trainable variable the
            # loss does not reach gets a zero gradient rather than stalling the reducer).
            module = VariableModule(params)
            wrapper = DistributedDataParallel(
                module, device_ids=self._device_ids, static_graph=True
            )
            self._wrappers[key] = wrapper
        return wrapper


def take_grad(native):
    """The gradient `backward()` left on `native` (zeros if none), cleared from it."""
    grad = native.grad
    native.grad = None
    return torch.zeros_like(native) if grad is None else grad


class _Running(threading.local):
    """The `Replicas` (or FSDP2 `fsdp.Shards`) of the data-parallel step running in this thread
    (None outside one)."""

    replicas = None


_running = _Running()


def running():
    """The `Replicas` (or `fsdp.Shards`) whose step runs in this thread now, or None (one
    device): `value_and_grad` takes its gradients through its own `value_and_grad`."""
    return _running.replicas


@contextlib.contextmanager
def running_with(replicas):
    """Within the block, `value_and_grad` takes its gradients through `replicas`."""
    outer = _running.replicas
    _running.replicas = replicas
    try:
        yield
    finally:
        _running.replicas = outer
