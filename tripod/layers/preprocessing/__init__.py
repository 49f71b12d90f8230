"""Preprocessing layers: rescaling, normalization, image resizing/cropping, category encodings,
discretization, hashing and vocabulary lookups."""

from tripod.layers.preprocessing.category_encoding import CategoryEncoding
from tripod.layers.preprocessing.center_crop import CenterCrop
from tripod.layers.preprocessing.discretization import Discretization
from tripod.layers.preprocessing.hashing import HashedCrossing, Hashing
from tripod.layers.preprocessing.integer_lookup import IntegerLookup
from tripod.layers.preprocessing.normalization import Normalization
from tripod.layers.preprocessing.rescaling import Rescaling
from tripod.layers.preprocessing.resizing import Resizing
from tripod.layers.preprocessing.string_lookup import StringLookup

__all__ = [
    "CategoryEncoding",
    "CenterCrop",
    "Discretization",
    "HashedCrossing",
    "Hashing",
    "IntegerLookup",
    "Normalization",
    "Rescaling",
    "Resizing",
    "StringLookup",
]
