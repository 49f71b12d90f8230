"""Convolution layers: Conv1D/2D/3D, their transposes, depthwise and separable convolutions."""

from tripod.layers.convolution.conv import (
    Conv1D,
    Conv2D,
    Conv3D,
    Convolution1D,
    Convolution2D,
    Convolution3D,
)
from tripod.layers.convolution.conv_transpose import (
    Conv1DTranspose,
    Conv2DTranspose,
    Conv3DTranspose,
    Convolution1DTranspose,
    Convolution2DTranspose,
    Convolution3DTranspose,
)
from tripod.layers.convolution.depthwise_conv import DepthwiseConv1D, DepthwiseConv2D
from tripod.layers.convolution.separable_conv import (
    SeparableConv1D,
    SeparableConv2D,
    SeparableConvolution1D,
    SeparableConvolution2D,
)

__all__ = [
    "Conv1D",
    "Conv1DTranspose",
    "Conv2D",
    "Conv2DTranspose",
    "Conv3D",
    "Conv3DTranspose",
    "Convolution1D",
    "Convolution1DTranspose",
    "Convolution2D",
    "Convolution2DTranspose",
    "Convolution3D",
    "Convolution3DTranspose",
    "DepthwiseConv1D",
    "DepthwiseConv2D",
    "SeparableConv1D",
    "SeparableConv2D",
    "SeparableConvolution1D",
    "SeparableConvolution2D",
]
