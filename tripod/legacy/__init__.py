"""`tripod.legacy`: Keras 3's `keras.legacy` namespace; its one sub-namespace, `saving`, re-exports
tripod/saving/legacy_serialization.py."""

from tripod.legacy import saving

__all__ = ["saving"]
