"""Regularization layers: Dropout and its variants, Gaussian noise, activity regularization."""

from tripod.layers.regularization.activity_regularization import ActivityRegularization
from tripod.layers.regularization.alpha_dropout import AlphaDropout
from tripod.layers.regularization.dropout import Dropout
from tripod.layers.regularization.gaussian import GaussianDropout, GaussianNoise
from tripod.layers.regularization.spatial_dropout import (
    SpatialDropout1D,
    SpatialDropout2D,
    SpatialDropout3D,
)

__all__ = [
    "ActivityRegularization",
    "AlphaDropout",
    "Dropout",
    "GaussianDropout",
    "GaussianNoise",
    "SpatialDropout1D",
    "SpatialDropout2D",
    "SpatialDropout3D",
]
