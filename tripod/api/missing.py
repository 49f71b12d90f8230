"""Clear errors for the Keras 3 names tripod does not have yet.

`install(tripod)` gives each public namespace that lacks Keras 3 names a module `__getattr__`
(PEP 562): `tripod.callbacks.OrbaxCheckpoint` raises an `AttributeError` (so `hasattr` stays False)
saying the name is part of Keras 3 but not in tripod yet, and what to use instead. A finder at
the end of `sys.meta_path` gives `import tripod.applications` and
`from tripod.callbacks import OrbaxCheckpoint` the same message as an `ImportError`. The names come from
`missing_names.py`, which `scripts/missing_keras_names.py --write` generates.
"""

import sys

from tripod.api.missing_names import MISSING

DOCS = "see docs/differences.md, 'Keras names tripod does not have yet'"

#: what to use instead, for the missing names matching a pattern (one `*` matches any run of
#: characters; the first matching pattern wins)
ALTERNATIVES = {
    "tripod.callbacks.OrbaxCheckpoint": "`tripod.callbacks.ModelCheckpoint` saves checkpoints",
    "tripod.dtype_policies.*": (
        "tripod has the float policies and the int8 / float8 quantized ones "
        "(`QuantizedDTypePolicy`, `QuantizedFloat8DTypePolicy`)"
    ),
    "tripod.quantizers.*": (
        "tripod quantizes layers to int8 and float8 (abs-max); it has the int4 packing and grouped "
        "quantization functions, but no int4 layer mode, GPTQ or AWQ"
    ),
}


def _matches(pattern, full_name):
    """Whether `full_name` matches `pattern`, which holds at most one `*`."""
    head, star, tail = pattern.partition("*")
    if not star:
        return full_name == pattern
    fits = len(full_name) >= len(head) + len(tail)
    return fits and full_name.startswith(head) and full_name.endswith(tail)


def alternative(full_name):
    """The hint for missing name `full_name` (e.g. "tripod.callbacks.OrbaxCheckpoint"), or None."""
    matching = (hint for pattern, hint in ALTERNATIVES.items() if _matches(pattern, full_name))
    return next(matching, None)


def message(full_name):
    """The error text for `full_name`, a Keras 3 name tripod does not have yet."""
    text = f"`{full_name}` is part of Keras 3 but not in tripod yet ({DOCS})"
    hint = alternative(full_name)
    return f"{text}; {hint}." if hint else f"{text}."


def _module_getattr(module, namespace):
    """A PEP 562 `__getattr__` for `module` (public name `namespace`): its missing Keras names
    raise the message; a `__getattr__` the module had already is asked first."""
    earlier = module.__dict__.get("__getattr__")
    missing = frozenset(MISSING[namespace])

    def __getattr__(name):
        if earlier is not None:
            try:
                return earlier(name)
            except AttributeError:
                if name not in missing:
                    raise
        if name in missing:
            raise AttributeError(message(f"{namespace}.{name}"), name=name, obj=module)
        text = f"module {namespace!r} has no attribute {name!r}"
        raise AttributeError(text, name=name, obj=module)

    return __getattr__


class _MissingNameFinder:
    """The last finder on `sys.meta_path`: an import of a missing Keras name raises the message
    (`from tripod.callbacks import OrbaxCheckpoint` asks for `tripod.callbacks.OrbaxCheckpoint`)."""

    def find_spec(self, fullname, path=None, target=None):
        """Raise the message for a missing name; None (not found here) for anything else."""
        namespace, _, name = fullname.rpartition(".")
        if name in MISSING.get(namespace, ()):
            raise ImportError(message(f"{namespace}.{name}"), name=fullname)


def _resolve(root, namespace):
    """The module of public `namespace` ("tripod.utils") under `root` (tripod), or None."""
    module = root
    for part in namespace.split(".")[1:]:
        module = getattr(module, part, None)
    return module


def install(root):
    """Hook every namespace of `root` (the tripod package) that lacks Keras 3 names."""
    for namespace in MISSING:
        module = _resolve(root, namespace)
        if module is None:
            continue
        module.__getattr__ = _module_getattr(module, namespace)
        # `from namespace import name` asks the import system only for packages.
        if not hasattr(module, "__path__"):
            module.__path__ = []
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _MissingNameFinder)]
    sys.meta_path.append(_MissingNameFinder())
