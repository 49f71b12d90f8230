"""The ops behind `tripod.ops`: every public op of the active backend, built from the contract.

Each op is the backend's function wrapped by `symbolic_aware`, so that it records an `Operation`
on `KerasTensor`s and carries the contract's name, signature and docstring
(`help(tripod.ops.add)`), with its public home: `tripod.ops`, or `tripod.ops.image` for the
image ops. Every op sits flat at the top of this module; the public namespaces
(`tripod/ops/__init__.py` and `tripod/ops/<kind>.py`) re-export them by name. IDEs and type
checkers read the stubs `tripod/ops/*.pyi` (written by `scripts/generate_op_stubs.py`).
"""

# imported under private names: every public function of this module is an op
from tripod.backends import active as _active
from tripod.backends import contract as _contract
from tripod.layers.operation import symbolic_aware as _symbolic_aware

_backend = _active()

#: the kinds of op `tripod.ops` publishes; image ops are at home only in `tripod.ops.image`
_KINDS = ("core", "numpy", "nn", "math", "linalg", "image")

globals().update(
    {
        name: _symbolic_aware(
            getattr(_backend, name), spec, "tripod.ops.image" if kind == "image" else "tripod.ops"
        )
        for kind in _KINDS
        for name, spec in _contract.OPS_BY_KIND[kind].items()
        if hasattr(_backend, name)
    }
)
