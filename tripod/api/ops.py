"""`tripod.ops`: every op of the active backend, with Keras 3 names and signatures.

As in Keras 3, every kind of op but image sits at the top of `ops`, and each kind also has its
own namespace (`ops.nn`, `ops.numpy`, `ops.linalg`, `ops.math`, `ops.core`, `ops.image`). Each
op carries the contract's name, signature and docstring (`help(tripod.ops.add)`), and its home is
`tripod.ops` (`tripod.ops.image` for the image ops). IDEs and type checkers read the same from
the stubs `tripod/ops/*.pyi` and `tripod/api/ops.pyi` (written by `scripts/generate_op_stubs.py`).
"""

import sys
import types

# imported under private names: every public function of this module is an op
from tripod.backends import active as _active
from tripod.backends import contract as _contract
from tripod.layers.operation import symbolic_aware as _symbolic_aware

_backend = _active()


def _namespace(kind):
    """The module `tripod.ops.<kind>` holding the public ops of contract kind `kind`."""
    module = types.ModuleType(f"tripod.ops.{kind}", f"tripod.ops.{kind}: the {kind} ops.")
    home = module.__name__ if kind == "image" else "tripod.ops"
    for name, spec in _contract.OPS_BY_KIND[kind].items():
        if hasattr(_backend, name):
            setattr(module, name, _symbolic_aware(getattr(_backend, name), spec, home))
    sys.modules[module.__name__] = module
    return module


core, numpy, nn, math, linalg, image = map(
    _namespace, ("core", "numpy", "nn", "math", "linalg", "image")
)

for _kind in (core, numpy, nn, math, linalg):
    globals().update({k: v for k, v in vars(_kind).items() if not k.startswith("__")})
