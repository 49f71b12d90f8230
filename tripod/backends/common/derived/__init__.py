"""Ops written once over the other ops of a backend, for every backend that has no native one.

Each public function of the kind modules here takes the assembled backend (`ops`) as its first
argument, followed by the contract signature of the op it implements. It calls only `ops.<op>`
on tensor values, so it runs (and traces) on every backend.
"""

import inspect

from tripod.backends.common.derived import core, hooks, image, linalg, math, nn, numpy_ops

#: the modules holding the derived ops and hooks, one per kind
MODULES = (core, numpy_ops, nn, math, linalg, image, hooks)


def _public_functions(module):
    return {
        name: fn
        for name, fn in vars(module).items()
        if inspect.isfunction(fn) and fn.__module__ == module.__name__ and not name.startswith("_")
    }


#: op name -> derived implementation `fn(ops, *contract_args)`
OPS = {name: fn for module in MODULES for name, fn in _public_functions(module).items()}
