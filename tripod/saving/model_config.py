"""Building a model from its config, as a file holds it."""

from tripod.saving import registry, serialization
from tripod.saving.h5_store import FileFormatError


def model_from_config(config, custom_objects=None, compile=True, safe_mode=True, label="config"):
    """Build a model from its config (without weights), resolving classes only via the registry."""
    if not isinstance(config, dict) or "class_name" not in config:
        raise FileFormatError(f"{label}: the model config should be an object with a 'class_name'.")
    if not compile:
        config = {k: v for k, v in config.items() if k != "compile_config"}
    try:
        with (
            serialization.SafeModeScope(safe_mode),
            registry.custom_object_scope(custom_objects or {}),
        ):
            model = serialization.deserialize_keras_object(config, custom_objects, safe_mode)
    except (ValueError, TypeError, KeyError) as e:
        raise FileFormatError(f"{label}: cannot rebuild the model: {e}") from e
    if not hasattr(model, "load_own_variables"):
        raise FileFormatError(
            f"{label}: the config describes a {type(model).__name__}, not a model."
        )
    return model
