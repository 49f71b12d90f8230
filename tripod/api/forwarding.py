"""`forwarding`: a module whose attributes are another object's (the stand-in for Keras)."""

import importlib
import types


def forwarding(name, target):
    """A package module `name` whose attributes are `target`'s, then its own submodules'."""
    module = types.ModuleType(name, getattr(target, "__doc__", None))
    module.__path__ = []
    module.__all__ = list(getattr(target, "__all__", None) or _public(target))

    def attribute(attr):
        if hasattr(target, attr):
            return getattr(target, attr)
        if not attr.startswith("__"):
            try:
                return importlib.import_module(f"{name}.{attr}")  # keras.src, keras.layers, ...
            except ImportError:
                pass
        raise AttributeError(f"module {name!r} has no attribute {attr!r}")

    module.__getattr__ = attribute
    module.__dir__ = lambda: sorted(set(dir(target)))
    return module


def _public(target):
    return [attr for attr in dir(target) if not attr.startswith("_")]
