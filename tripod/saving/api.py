"""`tripod.saving`: saving and loading models and weights, and the registry of classes."""

from tripod.saving.file_editor import KerasFileEditor
from tripod.saving.model_io import load_model, load_weights, save_model, save_weights
from tripod.saving.registry import (
    CustomObjectScope,
    custom_object_scope,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
)
from tripod.saving.serialization import deserialize_keras_object, serialize_keras_object

__all__ = [
    "CustomObjectScope",
    "KerasFileEditor",
    "custom_object_scope",
    "deserialize_keras_object",
    "get_custom_objects",
    "get_registered_name",
    "get_registered_object",
    "load_model",
    "load_weights",
    "register_keras_serializable",
    "save_model",
    "save_weights",
    "serialize_keras_object",
]
