"""The random ops behind `tripod.random` (tripod/random.py re-exports them by name), and
`SeedGenerator`.

Each op is a copy of the backend's function (same code, so no extra call) that carries the
contract's name, signature and docstring, with `tripod.random` as its home.
"""

import types

# imported under private names: every public function of this module is an op
from tripod.backends import active as _active
from tripod.backends import contract as _contract
from tripod.backends.common.seed import SeedGenerator
from tripod.layers.operation import described as _described

_backend = _active()


def _public(fn, spec):
    """A copy of backend function `fn` described as contract op `spec` of `tripod.random`.

    A copy, not `fn` itself, so the backend's own function keeps its metadata.
    """
    if not isinstance(fn, types.FunctionType):
        raise TypeError(f"tripod.random.{spec.__name__}: expected a Python function, got {fn!r}.")
    copy = types.FunctionType(
        fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__
    )
    copy.__kwdefaults__ = fn.__kwdefaults__
    copy.__dict__.update(fn.__dict__)
    return _described(copy, spec, "tripod.random")


globals().update(
    {
        name: _public(getattr(_backend, name), spec)
        for name, spec in _contract.OPS_BY_KIND["random"].items()
        if hasattr(_backend, name)
    }
)

__all__ = ["SeedGenerator"]
__all__ += list(_contract.OPS_BY_KIND["random"])  # the ops put into globals() above
