"""Keras's legacy object configs (`tripod.utils.legacy`): {"class_name": ..., "config": ...}
without module or registered names, the form tf.keras wrote and libraries written for it
(KerasTuner's hyperparameters) still read and write. Only classes the caller passes or the
registry holds are built; nothing is imported from a name found in a config."""

import inspect

from tripod.saving import registry


def serialize_keras_object(instance):
    """The legacy config of `instance`: {"class_name", "config"} of an object with
    `get_config`, the name of a function or class, None for None."""
    if instance is None:
        return None
    if hasattr(instance, "get_config"):
        return {"class_name": type(instance).__name__, "config": instance.get_config()}
    if hasattr(instance, "__name__"):
        return instance.__name__
    raise ValueError(f"Cannot serialize {instance!r}: it has no get_config() and no __name__.")


def deserialize_keras_object(
    identifier, module_objects=None, custom_objects=None, printable_module_name="object"
):
    """The object a legacy config describes: a {"class_name", "config"} dict gives an instance
    (`from_config`), a name the function it names (or an instance of the class it names), None
    None. Names are looked up in `custom_objects`, `module_objects`, the registry, then
    tripod's built-ins."""
    if identifier is None:
        return None
    objects = {**(module_objects or {}), **(custom_objects or {})}
    if isinstance(identifier, dict):
        if not isinstance(identifier.get("class_name"), str) or "config" not in identifier:
            raise ValueError(
                f"Improper config format for {printable_module_name}: expected a dict with "
                f"'class_name' and 'config', received {identifier!r}."
            )
        cls = _find(identifier["class_name"], objects, printable_module_name)
        config = identifier["config"]
        return cls.from_config(config) if hasattr(cls, "from_config") else cls(**config)
    if isinstance(identifier, str):
        found = _find(identifier, objects, printable_module_name)
        return found() if inspect.isclass(found) else found
    raise ValueError(f"Could not interpret serialized {printable_module_name}: {identifier!r}.")


def _find(name, objects, what):
    found = registry.resolve(None, name, custom_objects=objects)  # then tripod's built-ins
    if found is None:
        raise ValueError(
            f"Unknown {what}: {name!r}. Pass it in custom_objects or module_objects, or register "
            "it with @tripod.saving.register_keras_serializable()."
        )
    return found
