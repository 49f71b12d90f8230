"""Objects to and from JSON-ready configs, in Keras 3's schema.

An object serializes as `{"module", "class_name", "config", "registered_name"}` (layers add
`build_config`); tuples, NumPy arrays and bytes get tagged forms so they round-trip. Loading
builds only classes found in the registry or `custom_objects`, and refuses Python code (lambdas)
unless `safe_mode=False`.
"""

import base64
import builtins
import contextlib
import marshal
import threading
import types

import numpy as np

from tripod.backends import active, dtypes
from tripod.saving import registry

_safe_mode = {"enabled": True}
_scope = threading.local()


def enable_unsafe_deserialization():
    """Allow loading configs that carry Python code (Lambda layers), for this process."""
    _safe_mode["enabled"] = False


def in_safe_mode(safe_mode=None):
    """Whether deserialization refuses code.

    An enclosing `SafeModeScope` decides first (so nested `from_config` calls follow the
    `safe_mode` given to `load_model`); then `enable_unsafe_deserialization()`; then `safe_mode`.
    """
    scoped = getattr(_scope, "value", None)
    if scoped is not None:
        return scoped
    if not _safe_mode["enabled"]:
        return False
    return True if safe_mode is None else bool(safe_mode)


@contextlib.contextmanager
def SafeModeScope(safe_mode=True):
    """Within this block, deserialization refuses code unless `safe_mode` is False."""
    previous = getattr(_scope, "value", None)
    _scope.value = True if safe_mode is None else bool(safe_mode)
    try:
        yield
    finally:
        _scope.value = previous


def _serialize_function(fn):
    """A function by name, or a lambda as its code (`function_code_config`)."""
    if isinstance(fn, types.LambdaType) and fn.__name__ == "<lambda>":
        return function_code_config(fn)
    module = registry.builtin_module(fn)
    registered = registry.get_registered_name(fn)
    return {
        "module": module or fn.__module__,
        "class_name": "function",
        "config": registered if module is None else fn.__name__,
        "registered_name": "function",
    }


def function_code_config(fn):
    """`fn` as its marshalled bytecode, defaults and closure: Keras 3's `__lambda__` form, which
    loads only outside safe mode (`function_from_code`)."""
    closure = tuple(cell.cell_contents for cell in fn.__closure__) if fn.__closure__ else None
    return {
        "class_name": "__lambda__",
        "config": {
            "code": base64.encodebytes(marshal.dumps(fn.__code__)).decode("ascii"),
            "defaults": fn.__defaults__,
            "closure": closure,
        },
    }


def _code_globals(custom_objects):
    """The globals a loaded function runs with: the active backend's ops as `ops` and
    `custom_objects` (a name the code reads that is neither fails when it runs)."""
    return {"ops": active(), **(custom_objects or {}), "__builtins__": builtins}


def function_from_code(config, what="a lambda", custom_objects=None):
    """The function a `function_code_config` holds; refused in safe mode (loading runs code)."""
    if in_safe_mode():
        raise ValueError(
            f"Refusing to load Python code from a config ({what}) in safe mode: loading it would "
            "run arbitrary code. If you trust the source of this file, load it with "
            "safe_mode=False (or call tripod.config.enable_unsafe_deserialization())."
        )
    inner = config["config"]
    code = marshal.loads(base64.b64decode(inner["code"]))
    defaults, closure = inner.get("defaults"), inner.get("closure")
    if defaults is not None:
        defaults = tuple(deserialize_keras_object(defaults))
    if closure is not None:
        closure = tuple(types.CellType(v) for v in deserialize_keras_object(closure))
    scope = _code_globals(custom_objects)
    return types.FunctionType(code, scope, code.co_name, defaults, closure)


def serialize_keras_object(obj):
    """A JSON-ready config of `obj` (an object with `get_config`, a function or plain data)."""
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, (np.generic,)):
        return obj.item()
    if isinstance(obj, bytes):
        return _serialize_bytes(obj)
    if isinstance(obj, slice):  # a functional model's `x[:, -1]` keeps its index as a constant
        parts = {"start": obj.start, "stop": obj.stop, "step": obj.step}
        return {"class_name": "__slice__", "config": serialize_keras_object(parts)}
    if obj is Ellipsis:
        return {"class_name": "__ellipsis__", "config": {}}
    if isinstance(obj, np.ndarray):
        return {
            "class_name": "__numpy__",
            "config": {"value": obj.tolist(), "dtype": dtypes.standardize_dtype(obj.dtype)},
        }
    if isinstance(obj, (tuple, list)):  # JSON has lists only; Keras 3 writes tuples as lists too
        return [serialize_keras_object(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): serialize_keras_object(v) for k, v in obj.items()}
    if isinstance(obj, types.FunctionType):
        return _serialize_function(obj)
    if hasattr(obj, "get_config"):
        return _serialize_instance(obj)
    raise TypeError(
        f"Cannot serialize {obj!r}: it is not a tripod object, a function or plain data."
    )


def _serialize_bytes(value):
    """Bytes as Keras writes them (UTF-8 text), or as base64 where they are not UTF-8 (which
    Keras cannot write)."""
    try:
        return {"class_name": "__bytes__", "config": {"value": value.decode("utf-8")}}
    except UnicodeDecodeError:
        return {"class_name": "__bytes__", "config": {"base64": base64.b64encode(value).decode()}}


def _serialize_instance(obj):
    cls = type(obj)
    module = registry.builtin_module(cls)
    registered = None if module is not None else registry.get_registered_name(cls)
    config = {
        "module": module or cls.__module__,
        # A class may name itself as Keras 3 does (GroupedQueryAttention is "GroupQueryAttention").
        "class_name": cls.__dict__.get("_keras_class_name", cls.__name__),
        "config": serialize_keras_object(obj.get_config()),
        "registered_name": registered,
    }
    build_config = getattr(obj, "get_build_config", lambda: None)()
    if build_config is not None:
        config["build_config"] = serialize_keras_object(build_config)
    compile_config = getattr(obj, "get_compile_config", lambda: None)()
    if compile_config is not None:
        config["compile_config"] = serialize_keras_object(compile_config)
    return config


def _deserialize_tagged(class_name, config):
    if class_name == "__tuple__":
        return tuple(deserialize_keras_object(v) for v in config["value"])
    if class_name == "__numpy__":
        return np.asarray(config["value"], dtype=dtypes.to_numpy(config["dtype"]))
    if class_name == "__bytes__":
        if "base64" in config:
            return base64.b64decode(config["base64"])
        return config["value"].encode("utf-8")
    if class_name == "__slice__":
        return slice(*(deserialize_keras_object(config[k]) for k in ("start", "stop", "step")))
    if class_name == "__ellipsis__":
        return Ellipsis
    raise ValueError(f"Unknown tagged value {class_name!r} in a config.")


def _unknown(class_name, module, kind="class"):
    where = f" (module {module!r})" if module else ""
    return ValueError(
        f"Could not locate {kind} {class_name!r}{where}. tripod builds only its built-in classes "
        "and classes registered with @tripod.saving.register_keras_serializable() or passed in "
        "custom_objects; nothing is imported from a name found in a file."
    )


def deserialize_keras_object(config, custom_objects=None, safe_mode=True, **kwargs):
    """Rebuild an object from its config, resolving classes only through the registry.

    `safe_mode` (default True) refuses configs carrying Python code; an enclosing
    `SafeModeScope` (as `load_model` opens) takes precedence, and nested calls inherit it.
    `module_objects` (a keyword argument, as in Keras) maps more names to classes or functions,
    looked up after `custom_objects` and before the registry (a bare name of a class there
    builds an instance with its defaults, as in Keras); `printable_module_name` names
    what they are in the error for an unknown name (KerasHub passes "samplers").
    """
    module_objects = kwargs.pop("module_objects", None)
    kind = kwargs.pop("printable_module_name", "class")
    if kwargs:
        raise TypeError(f"deserialize_keras_object: unexpected arguments {sorted(kwargs)}.")
    if module_objects:
        custom_objects = {**module_objects, **(custom_objects or {})}
        if isinstance(config, str) and isinstance(module_objects.get(config), type):
            config = {"class_name": config, "config": {}}  # as Keras: an instance, defaults
    with SafeModeScope(in_safe_mode(safe_mode)):
        return _deserialize(config, custom_objects, safe_mode, kind)


def _deserialize(config, custom_objects, safe_mode, kind="class"):
    if config is None or isinstance(config, (bool, int, float)):
        return config
    if isinstance(config, str):
        found = registry.get_registered_object(config, custom_objects)
        return found if found is not None else config
    if isinstance(config, list):
        return [deserialize_keras_object(v, custom_objects, safe_mode) for v in config]
    if not isinstance(config, dict):
        raise TypeError(f"Cannot deserialize {config!r}.")
    if "class_name" not in config:
        return {
            k: deserialize_keras_object(v, custom_objects, safe_mode) for k, v in config.items()
        }
    class_name, inner = config["class_name"], config.get("config")
    if not isinstance(class_name, str):
        raise TypeError(f"A config's class_name must be a string, received {class_name!r}.")
    if class_name.startswith("__") and class_name.endswith("__"):
        if class_name == "__lambda__":
            with SafeModeScope(in_safe_mode(safe_mode)):
                return function_from_code(config, custom_objects=custom_objects)
        return _deserialize_tagged(class_name, inner)
    module, registered = config.get("module"), config.get("registered_name")
    if class_name == "function":
        fn = registry.resolve(module, inner, None, custom_objects)
        if fn is None:
            raise _unknown(inner, module)
        return fn
    cls = registry.resolve(module, class_name, registered, custom_objects)
    if cls is None:
        raise _unknown(class_name, module, kind)
    with registry.custom_object_scope(custom_objects or {}):
        if hasattr(cls, "from_config"):
            obj = cls.from_config(inner if inner is not None else {})
        else:
            obj = cls(**(inner or {}))
        build_config = config.get("build_config")
        if build_config and hasattr(obj, "build_from_config"):
            obj.build_from_config(deserialize_keras_object(build_config, custom_objects, safe_mode))
        compile_config = config.get("compile_config")
        if compile_config and hasattr(obj, "compile_from_config"):
            obj.compile_from_config(compile_config)
    return obj


def identifier_getter(kind, module, base, aliases):
    """The `get(identifier)` of a family of objects (initializers, regularizers, ...).

    It accepts None, an instance of `base`, a config dict, a name (an alias such as
    `"glorot_uniform"` or a class name registered under `module`) or any callable.
    """

    def get(identifier):
        if identifier is None or isinstance(identifier, base):
            return identifier
        if isinstance(identifier, dict):
            return deserialize_keras_object(identifier)
        if isinstance(identifier, str):
            cls = aliases.get(identifier) or registry.resolve(module, identifier)
            if cls is None:
                raise ValueError(f"Unknown {kind}: {identifier!r}.")
            return cls()
        if callable(identifier):
            return identifier
        raise ValueError(f"Could not interpret a {kind} from {identifier!r}.")

    get.__doc__ = f"A {kind} from None, a name, a config or a callable."
    return get


def serialize(obj):
    """The config of a tripod object (`serialize_keras_object`)."""
    return serialize_keras_object(obj)


def deserialize(config, custom_objects=None):
    """An object from its config (`deserialize_keras_object`)."""
    return deserialize_keras_object(config, custom_objects)
