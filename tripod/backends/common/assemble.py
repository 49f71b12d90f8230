"""Build a backend's op namespace from its package, the contract and the shared derived ops.

A backend registers its ops explicitly: each of its op modules lists the contract ops it
implements in `__all__`, and the backend package names those modules in `OP_MODULES`. Everything
else in an op module (helpers, constants, imported names) is not an op, whatever its name, so
helpers can be plain public names. An op's kind comes from the contract (`contract.KIND_OF`), not
from the name of the module that implements it. `__all__` rather than a registering decorator:
many ops are made by factories (`sin = _float_unary("sin", torch.sin)`), which a decorator cannot
mark, and `__all__` is where Python readers and tools already look for a module's interface.
"""

import functools
import importlib

from tripod.backends import contract
from tripod.backends.common import default_hooks, derived, errors, fast_paths


class Backend:
    """One backend's ops, its `Variable` class and its hooks, as attributes.

    Every contract op is present: the backend's own implementation where it has one, else the
    shared derived implementation written over the backend's other ops. A hook the backend
    does not define takes its shared default, and so does each fast path
    (`fast_paths.FAST_PATHS`) when they are turned off.
    """

    def __init__(self, name, package):
        self.name = name
        self.package = package
        self.Variable = package.Variable
        self.missing = []
        native = getattr(package, "NATIVE_ERRORS", ())
        own = own_ops(package)
        if not fast_paths.enabled():
            own = {name: fn for name, fn in own.items() if name not in fast_paths.FAST_PATHS}
        for op_name, kind in contract.KIND_OF.items():
            fn = own.get(op_name)
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


def op_modules(package_name, module_names):
    """The op modules `module_names` of backend package `package_name`, imported in that order
    (a backend package calls this where importing them is safe, e.g. after configuring its
    framework)."""
    return tuple(importlib.import_module(f"{package_name}.{name}") for name in module_names)


def registrations(package):
    """(module name, op name) for each op that a module of `package.OP_MODULES` lists in its
    `__all__`, in order; an op listed twice appears twice."""
    return [(module.__name__, name) for module in package.OP_MODULES for name in module.__all__]


def own_ops(package):
    """Op name -> the implementation `package` registers for it.

    A registered name that is not a contract op, or an op registered by two modules, is a
    TypeError: either would silently shadow or drop an implementation.
    """
    ops = {}
    for module in package.OP_MODULES:
        for op_name in module.__all__:
            if op_name not in contract.KIND_OF:
                raise TypeError(f"{module.__name__} registers {op_name!r}, not a contract op.")
            if op_name in ops:
                raise TypeError(f"{module.__name__} registers op {op_name!r} a second time.")
            ops[op_name] = getattr(module, op_name)
    return ops


#: backend name -> its assembled `Backend`: a plain dict, which torch.compile reads in a trace
#: (it cannot trace a `functools.cache` wrapper, nor the import behind it)
_LOADED = {}


def load(name):
    """The assembled `Backend` for backend `name` (imports its framework on first use)."""
    backend = _LOADED.get(name)
    if backend is None:
        backend = _LOADED[name] = Backend(name, importlib.import_module(f"tripod.backends.{name}"))
    return backend
