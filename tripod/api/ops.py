"""`tripod.ops`: every op of the active backend, with Keras 3 names and signatures.

As in Keras 3, every kind of op but image sits at the top of `ops`, and each kind also has its
own namespace (`ops.nn`, `ops.numpy`, `ops.linalg`, `ops.math`, `ops.core`, `ops.image`).
"""

import sys
import types

from tripod.backends import active, contract
from tripod.layers.operation import symbolic_aware

_backend = active()


def _namespace(kind):
    module = types.ModuleType(f"tripod.ops.{kind}", f"tripod.ops.{kind}: the {kind} ops.")
    for name in contract.OPS_BY_KIND[kind]:
        if hasattr(_backend, name):
            setattr(module, name, symbolic_aware(name, getattr(_backend, name)))
    sys.modules[module.__name__] = module
    return module


core, numpy, nn, math, linalg, image = map(
    _namespace, ("core", "numpy", "nn", "math", "linalg", "image")
)

for _kind in (core, numpy, nn, math, linalg):
    globals().update({k: v for k, v in vars(_kind).items() if not k.startswith("__")})
