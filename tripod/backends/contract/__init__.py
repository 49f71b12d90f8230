"""The ops contract: every op a backend provides, with its signature and a one-line docstring.

Each module here holds one kind of op as signature-only functions (the numpy-style ops, the
most numerous kind, fill a package of modules named for what their ops do: its `SECTIONS`). A
backend implements every op of every kind (directly, or through a shared derived
implementation) and nothing else; the contract tests hold each backend to these names and
signatures. The contract modules hold nothing but stubs, so every public function in them is
an op.
"""

import inspect

from tripod.backends.contract import core, hooks, image, linalg, math, nn, numpy_ops, random

#: op kind -> the contract module (or package of modules) stating its ops
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


def _stubs(module):
    """Op name -> stub, for the public functions defined in contract module `module`."""
    return {
        name: fn
        for name, fn in vars(module).items()
        if inspect.isfunction(fn) and fn.__module__ == module.__name__ and not name.startswith("_")
    }


def _ops_of(module):
    """Op name -> stub for one kind: its module's stubs, or its sections' (sorted by name)."""
    sections = getattr(module, "SECTIONS", None)
    if sections is None:
        return _stubs(module)
    return dict(sorted(item for section in sections for item in _stubs(section).items()))


#: kind -> {op name -> signature stub}
OPS_BY_KIND = {kind: _ops_of(module) for kind, module in KINDS.items()}

#: op name -> signature stub, across every kind
OPS = {name: fn for ops in OPS_BY_KIND.values() for name, fn in ops.items()}

#: op name -> its kind
KIND_OF = {name: kind for kind, ops in OPS_BY_KIND.items() for name in ops}


def signature(name):
    """The contract signature of op `name`."""
    return inspect.signature(OPS[name])
