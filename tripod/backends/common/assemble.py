"""Build a backend's op namespace from its package, the contract and the shared derived ops."""

import functools
import importlib
import inspect

from tripod.backends import contract
from tripod.backends.common import default_hooks, derived, errors


class Backend:
    """One backend's ops, its `Variable` class and its hooks, as attributes.

    Every contract op is present: the backend's own implementation where it has one, else the
    shared derived implementation written over the backend's other ops. A hook the backend
    does not define takes its shared default.
    """

    def __init__(self, name, package):
        self.name = name
        self.package = package
        self.Variable = package.Variable
        self.missing = []
        native = getattr(package, "NATIVE_ERRORS", ())
        own = {kind: own_ops(package, kind) for kind in contract.KINDS}
        for op_name, kind in contract.KIND_OF.items():
            fn = own[kind].get(op_name)
            if fn is None and kind == "hooks":
                fn = default_hooks.HOOKS.get(op_name)
            if fn is None:
                shared = derived.OPS.get(op_name)
                if shared is None:
                    self.missing.append(op_name)
                    continue
                fn = functools.partial(shared, self)
                fn.__name__, fn.__doc__ = op_name, shared.__doc__
            if kind != "hooks":
                fn = errors.translating(op_name, fn, native)
            setattr(self, op_name, fn)

    def __repr__(self):
        return f"<tripod backend {self.name!r}>"


def kind_modules(package_name):
    """Kind -> module for backend package `package_name`, whose op modules carry the names of the
    contract's modules (`core`, `numpy_ops`, `nn`, ...)."""
    return {
        kind: importlib.import_module(f"{package_name}.{module.__name__.rpartition('.')[2]}")
        for kind, module in contract.KINDS.items()
    }


def own_ops(package, kind):
    """The public functions defined in `package`'s module for op kind `kind`."""
    module = package.KIND_MODULES.get(kind)
    if module is None:
        return {}
    return {
        name: fn
        for name, fn in vars(module).items()
        if inspect.isfunction(fn) and not name.startswith("_") and fn.__module__ == module.__name__
    }


@functools.cache
def load(name):
    """The assembled `Backend` for backend `name` (imports its framework on first use)."""
    package = importlib.import_module(f"tripod.backends.{name}")
    return Backend(name, package)
