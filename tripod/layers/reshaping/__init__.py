"""Reshaping layers: Flatten, Reshape, Permute, RepeatVector, Cropping, ZeroPadding, UpSampling."""

from tripod.layers.reshaping.cropping import Cropping1D, Cropping2D, Cropping3D
from tripod.layers.reshaping.flatten import Flatten
from tripod.layers.reshaping.permute import Permute
from tripod.layers.reshaping.repeat_vector import RepeatVector
from tripod.layers.reshaping.reshape import Reshape
from tripod.layers.reshaping.up_sampling import UpSampling1D, UpSampling2D, UpSampling3D
from tripod.layers.reshaping.zero_padding import ZeroPadding1D, ZeroPadding2D, ZeroPadding3D

__all__ = [
    "Cropping1D",
    "Cropping2D",
    "Cropping3D",
    "Flatten",
    "Permute",
    "RepeatVector",
    "Reshape",
    "UpSampling1D",
    "UpSampling2D",
    "UpSampling3D",
    "ZeroPadding1D",
    "ZeroPadding2D",
    "ZeroPadding3D",
]
