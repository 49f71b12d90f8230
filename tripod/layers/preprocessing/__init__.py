"""Preprocessing layers: rescaling, normalization, image resizing/cropping and augmentation,
category encodings, discretization, hashing, vocabulary lookups, text vectorization and audio
spectrograms. They run inside models and in input pipelines (see `data_layer`)."""

from tripod.layers.preprocessing import audio, image
from tripod.layers.preprocessing.audio import *
from tripod.layers.preprocessing.category_encoding import CategoryEncoding
from tripod.layers.preprocessing.center_crop import CenterCrop
from tripod.layers.preprocessing.discretization import Discretization
from tripod.layers.preprocessing.hashing import HashedCrossing, Hashing
from tripod.layers.preprocessing.image import *
from tripod.layers.preprocessing.integer_lookup import IntegerLookup
from tripod.layers.preprocessing.normalization import Normalization
from tripod.layers.preprocessing.pipeline import Pipeline
from tripod.layers.preprocessing.rescaling import Rescaling
from tripod.layers.preprocessing.resizing import Resizing
from tripod.layers.preprocessing.string_lookup import StringLookup
from tripod.layers.preprocessing.text_vectorization import TextVectorization

__all__ = [
    "CategoryEncoding",
    "CenterCrop",
    "Discretization",
    "HashedCrossing",
    "Hashing",
    "IntegerLookup",
    "Normalization",
    "Pipeline",
    "Rescaling",
    "Resizing",
    "StringLookup",
    "TextVectorization",
]
__all__ += audio.__all__
__all__ += image.__all__
