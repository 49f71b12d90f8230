"""The numpy backend: image ops (resizing, scale_and_translate, map_coordinates).

The work is done by `common.resample`, shared with the jax backend; the reference resamples in
float64.
"""

import numpy as np

from tripod.backends.common import resample
from tripod.backends.numpy.core import convert_to_tensor

__all__ = ["map_coordinates", "resize", "scale_and_translate"]


def _work_dtype(dtype):
    """The float dtype the reference resamples a `dtype` image in: float64, whatever `dtype`."""
    return np.float64


_ARRAYS = resample.Arrays(np, convert_to_tensor, _work_dtype, np.int64)


def resize(
    images,
    size,
    interpolation="bilinear",
    antialias=False,
    crop_to_aspect_ratio=False,
    pad_to_aspect_ratio=False,
    fill_mode="constant",
    fill_value=0.0,
    data_format=None,
):
    return resample.resize(
        _ARRAYS,
        images,
        size,
        interpolation,
        antialias,
        crop_to_aspect_ratio,
        pad_to_aspect_ratio,
        fill_mode,
        fill_value,
        data_format,
    )


def scale_and_translate(
    images, output_shape, scale, translation, spatial_dims, method, antialias=True
):
    return resample.scale_and_translate(
        _ARRAYS, images, output_shape, scale, translation, spatial_dims, method, antialias
    )


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0):
    return resample.map_coordinates(_ARRAYS, inputs, coordinates, order, fill_mode, fill_value)
