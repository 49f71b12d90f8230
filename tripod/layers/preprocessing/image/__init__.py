"""Image augmentation layers, written once over the backend ops (see `base`)."""

from tripod.layers.preprocessing.image.random_flip import RandomFlip

__all__ = ["RandomFlip"]
