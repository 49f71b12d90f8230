"""The registry of classes that configs may name: tripod's built-ins and the user's registered ones.

Built-in classes join under their Keras 3 public module (`keras.layers`, `keras.initializers`, ...),
so configs read and written by Keras 3 resolve to the same classes. Loading resolves names only
through this registry (and `custom_objects`): nothing is imported from a name in a file.
"""

import contextlib
import threading

#: (public module, class name) -> built-in class or function
_builtins = {}
#: public module of each built-in object
_module_of = {}
#: "package>name" -> user-registered class or function
_custom = {}
_custom_names = {}
_scopes = threading.local()


def register_builtin(obj, module, name=None):
    """Record a tripod built-in under Keras 3's public `module` (e.g. `keras.layers`)."""
    name = name or obj.__name__
    _builtins[(module, name)] = obj
    _module_of.setdefault(obj, module)
    return obj


def builtin_module(obj):
    """The public module a built-in was registered under, or None for a user object."""
    return _module_of.get(obj)


def register_keras_serializable(package="Custom", name=None):
    """Decorator: make a user class or function loadable by the name `package>name`."""
    if ">" in package:
        raise ValueError(f"register_keras_serializable: package {package!r} cannot contain '>'.")

    def decorator(obj):
        registered = f"{package}>{name or obj.__name__}"
        if registered in _custom and _custom[registered] is not obj:
            raise ValueError(f"{registered!r} is already registered to {_custom[registered]!r}.")
        if isinstance(obj, type) and not hasattr(obj, "get_config"):
            raise ValueError(f"Cannot register {obj.__name__}: it has no get_config().")
        _custom[registered] = obj
        _custom_names[obj] = registered
        return obj

    return decorator


def get_registered_name(obj):
    """The name `obj` is registered under: `package>name` for user objects, else its own name."""
    return _custom_names.get(obj, getattr(obj, "__name__", type(obj).__name__))


def get_custom_objects():
    """The live dict of user-registered objects (`package>name` -> object)."""
    return _custom


def _scoped_objects():
    merged = {}
    for scope in getattr(_scopes, "stack", []):
        merged.update(scope)
    return merged


@contextlib.contextmanager
def custom_object_scope(custom_objects):
    """Within this block, configs may name the objects in `custom_objects` (name -> object)."""
    stack = getattr(_scopes, "stack", None)
    if stack is None:
        stack = _scopes.stack = []
    stack.append(dict(custom_objects or {}))
    try:
        yield
    finally:
        stack.pop()


CustomObjectScope = custom_object_scope


def get_registered_object(name, custom_objects=None, module_objects=None):
    """The object a config names, from custom objects, scopes, the registry or built-ins; or None."""
    for table in (custom_objects or {}, _scoped_objects(), _custom, module_objects or {}):
        if name in table:
            return table[name]
    return None


def resolve(module, class_name, registered_name=None, custom_objects=None):
    """The class or function a serialized config names, or None when nothing registered matches."""
    for name in (registered_name, class_name):
        if name:
            found = get_registered_object(name, custom_objects)
            if found is not None:
                return found
    if module is not None:
        found = _builtins.get((module, class_name))
        if found is not None:
            return found
        if not _is_library_module(module):
            return None  # a config naming another module gets nothing from tripod's built-ins
    candidates = {id(obj): obj for (mod, name), obj in _builtins.items() if name == class_name}
    return next(iter(candidates.values())) if len(candidates) == 1 else None


def _is_library_module(module):
    """Whether `module` is one of Keras's or tripod's (public or internal) module paths."""
    return isinstance(module, str) and module.split(".")[0] in ("keras", "tripod", "tf_keras")
