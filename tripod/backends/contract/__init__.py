"""The ops contract: every op a backend provides, with its signature and a one-line docstring.

Each module here holds one kind of op as signature-only functions. A backend implements every
op of every kind (directly, or through a shared derived implementation) and nothing else; the
contract tests hold each backend to these names and signatures.
"""

import inspect

from tripod.backends.contract import core, hooks, image, linalg, math, nn, numpy_ops, random

KINDS = {
    "core": core,
    "numpy": numpy_ops,
    "nn": nn,
    "math": math,
    "linalg": linalg,
    "image": image,
    "random": random,
    "hooks": hooks,
}

#: kinds exposed through `tripod.ops` / `tripod.random`; hooks serve layers and training only
PUBLIC_KINDS = ("core", "numpy", "nn", "math", "linalg", "image", "random")


def _ops_of(module):
    return {
        name: fn
        for name, fn in vars(module).items()
        if inspect.isfunction(fn) and fn.__module__ == module.__name__ and not name.startswith("_")
    }


#: kind -> {op name -> signature stub}
OPS_BY_KIND = {kind: _ops_of(module) for kind, module in KINDS.items()}

#: op name -> signature stub, across every kind
OPS = {name: fn for ops in OPS_BY_KIND.values() for name, fn in ops.items()}

#: op name -> its kind
KIND_OF = {name: kind for kind, ops in OPS_BY_KIND.items() for name in ops}


def signature(name):
    """The contract signature of op `name`."""
    return inspect.signature(OPS[name])
