"""`tripod.legacy`: Keras 3's `keras.legacy` namespace, whose `saving` reads and writes the
Keras 2 object configs (the same functions as `tripod.utils.legacy`)."""

from tripod.saving import legacy_serialization as saving

__all__ = ["saving"]
