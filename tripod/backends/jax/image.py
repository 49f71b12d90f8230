"""The jax backend: image ops (resizing, scale_and_translate, map_coordinates).

The work is done by `common.resample` on `jax.numpy`, shared with the numpy backend; images are
resampled in float32, or float64 where float32 cannot hold their values exactly.
"""

import jax.numpy as jnp

from tripod.backends import dtypes
from tripod.backends.common import resample
from tripod.backends.jax.core import convert_to_tensor
from tripod.backends.jax.helpers import np_dtype, wide_dtype

__all__ = ["map_coordinates", "resize", "scale_and_translate"]


def _work_dtype(dtype):
    """The float dtype to resample a `dtype` image in."""
    return np_dtype(wide_dtype(dtypes.standardize_dtype(dtype)))


_ARRAYS = resample.Arrays(jnp, convert_to_tensor, _work_dtype, jnp.int32)


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
