"""`tripod.utils.legacy`: Keras 2 object configs (as `keras.utils.legacy`); the code lives in tripod/saving/legacy_serialization.py."""

from tripod.saving.legacy_serialization import deserialize_keras_object, serialize_keras_object

__all__ = ["deserialize_keras_object", "serialize_keras_object"]
