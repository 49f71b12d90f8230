"""Ops written once over the other ops of a backend, for every backend that has no native one.

Each op a module here lists in its `__all__` takes the assembled backend (`ops`) as its first
argument, followed by the contract signature of the op it implements. It calls only `ops.<op>`
on tensor values, so it runs (and traces) on every backend.
"""

from tripod.backends.common.derived import (
    core,
    hooks,
    image,
    linalg,
    math,
    nn,
    numpy_arrays,
    numpy_elementwise,
    numpy_reductions,
)

#: the modules whose `__all__` registers the derived ops and hooks
MODULES = (core, numpy_arrays, numpy_elementwise, numpy_reductions, nn, math, linalg, image, hooks)

#: op name -> derived implementation `fn(ops, *contract_args)`
OPS = {name: getattr(module, name) for module in MODULES for name in module.__all__}
