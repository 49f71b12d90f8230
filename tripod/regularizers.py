"""`tripod.regularizers`: weight regularizers; the code lives in tripod/layers/regularizers.py."""

from tripod.layers.regularizers import (
    L1,
    L1L2,
    L2,
    OrthogonalRegularizer,
    Regularizer,
    deserialize,
    get,
    l1,
    l1_l2,
    l2,
    orthogonal_regularizer,
    serialize,
)

__all__ = [
    "L1",
    "L1L2",
    "L2",
    "OrthogonalRegularizer",
    "Regularizer",
    "deserialize",
    "get",
    "l1",
    "l1_l2",
    "l2",
    "orthogonal_regularizer",
    "serialize",
]
