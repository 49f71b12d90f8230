"""The jax backend: image ops (resizing, scale_and_translate, map_coordinates).

Resampling multiplies each spatial dim by the weight matrix of `common.resize`, so every backend
resizes with the same numbers; integer images are rounded back to their dtype and clipped to its
range, as in Keras.
"""

import itertools

import jax.numpy as jnp
import numpy as np

from tripod.backends import dtypes
from tripod.backends.common import conv as conv_math
from tripod.backends.common import resize as resize_math
from tripod.backends.jax.core import convert_to_tensor
from tripod.backends.jax.helpers import np_dtype, wide_dtype

_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


def _work(x):
    """The float dtype to resample tensor `x` in."""
    return np_dtype(wide_dtype(dtypes.standardize_dtype(x.dtype)))


def _to_image_dtype(values, dtype, rounding=jnp.round):
    """Float `values` as an image of `dtype`: ints are rounded (`rounding`) and clipped."""
    name = dtypes.standardize_dtype(dtype)
    if dtypes.is_int(name):
        info = np.iinfo(name)
        values = jnp.clip(rounding(values), info.min, info.max)
    return values.astype(np_dtype(name))


def _along(x, axis, weights):
    """`x` resampled along `axis` by an (output, input) weight matrix."""
    return jnp.moveaxis(jnp.tensordot(weights, x, axes=([1], [axis])), 0, axis)


def _resample(x, axis, size, method, antialias):
    """`x` resized to `size` along `axis` with `method`."""
    if method == "nearest":
        return jnp.take(x, resize_math.nearest_indices(x.shape[axis], size), axis=axis)
    weights = resize_math.resize_weights(x.shape[axis], size, method, antialias, "float64")
    return _along(x, axis, jnp.asarray(weights, x.dtype))


def _size_pair(size):
    values = tuple(int(s) for s in size) if isinstance(size, (list, tuple)) else None
    if values is None or len(values) != 2 or min(values) <= 0:
        raise ValueError(
            f"size must be a tuple of two positive ints (height, width), received {size!r}."
        )
    return values


def resize(images, size, interpolation="bilinear", antialias=False, crop_to_aspect_ratio=False, pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, data_format=None):  # fmt: skip
    method = resize_math.standardize_method(interpolation)
    data_format = conv_math.standardize_data_format(data_format)
    height, width = _size_pair(size)
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("only one of crop_to_aspect_ratio and pad_to_aspect_ratio can be True.")
    if fill_mode != "constant":
        raise ValueError(f"fill_mode must be 'constant', received {fill_mode!r}.")
    images = convert_to_tensor(images)
    if images.ndim not in (3, 4):
        raise ValueError(f"images must have rank 3 or 4, received shape {images.shape}.")
    x = images if images.ndim == 4 else images[None]
    if data_format == "channels_first":
        x = jnp.moveaxis(x, 1, -1)
    x = x.astype(_work(images))
    in_height, in_width = x.shape[1:3]
    if crop_to_aspect_ratio:
        top, left, crop_h, crop_w = resize_math.crop_to_aspect_box(
            in_height, in_width, height, width
        )
        x = x[:, top : top + crop_h, left : left + crop_w]
    elif pad_to_aspect_ratio:
        pad_h, pad_w = resize_math.pad_to_aspect_amounts(in_height, in_width, height, width)
        x = jnp.pad(x, [(0, 0), pad_h, pad_w, (0, 0)], constant_values=fill_value)
    x = _resample(_resample(x, 1, height, method, antialias), 2, width, method, antialias)
    if data_format == "channels_first":
        x = jnp.moveaxis(x, -1, 1)
    return _to_image_dtype(x if images.ndim == 4 else x[0], images.dtype)


def scale_and_translate(images, output_shape, scale, translation, spatial_dims, method, antialias=True):  # fmt: skip
    method = resize_math.standardize_method(method, resize_math.INTERPOLATIONS[1:5])
    images = convert_to_tensor(images)
    work = _work(images)
    x = images.astype(work)
    output_shape = tuple(int(s) for s in output_shape)
    spatial_dims = tuple(int(d) % x.ndim for d in spatial_dims)
    scale = convert_to_tensor(scale, work).reshape(-1)
    translation = convert_to_tensor(translation, work).reshape(-1)
    if (
        len(output_shape) != x.ndim
        or scale.shape[0] != len(spatial_dims)
        or translation.shape[0] != len(spatial_dims)
    ):
        raise ValueError(
            "output_shape must match the image rank, scale and translation the spatial_dims."
        )
    for axis in range(x.ndim):
        if axis not in spatial_dims and output_shape[axis] != x.shape[axis]:
            raise ValueError(
                f"output_shape {output_shape} changes the non-spatial dim {axis} of {x.shape}."
            )
    for i, axis in enumerate(spatial_dims):
        weights = resize_math.scale_translate_weights(
            jnp,
            x.shape[axis],
            output_shape[axis],
            scale[i],
            translation[i],
            method,
            antialias,
            work,
        )
        x = _along(x, axis, weights)
    return _to_image_dtype(x, images.dtype)


# -- map_coordinates --------------------------------------------------------------------------


def _remap(index, size, mode):
    """Integer tap positions mapped into [0, size) by `mode` (constant leaves them as they are)."""
    if mode == "nearest":
        return jnp.clip(index, 0, size - 1)
    if mode == "wrap":
        return jnp.mod(index, size)
    if mode == "mirror":
        if size == 1:
            return jnp.zeros_like(index)
        period = 2 * (size - 1)
        return jnp.abs(jnp.mod(index + size - 1, period) - (size - 1))
    if mode == "reflect":
        folded = jnp.mod(index, 2 * size)
        return jnp.where(folded < size, folded, 2 * size - 1 - folded)
    return index


def _taps(coordinate, order):
    """[(integer position, weight)] of the interpolation taps along one dim."""
    if order == 0:
        return [(jnp.floor(coordinate + 0.5).astype(jnp.int32), jnp.ones_like(coordinate))]
    lower = jnp.floor(coordinate)
    frac = coordinate - lower
    return [(lower.astype(jnp.int32), 1.0 - frac), (lower.astype(jnp.int32) + 1, frac)]


def _round_half_away(values):
    return jnp.sign(values) * jnp.floor(jnp.abs(values) + 0.5)


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0):
    inputs = convert_to_tensor(inputs)
    if order not in (0, 1):
        raise ValueError(f"order must be 0 or 1, received {order!r}.")
    if fill_mode not in _FILL_MODES:
        raise ValueError(f"fill_mode must be one of {_FILL_MODES}, received {fill_mode!r}.")
    work = _work(inputs)
    coords = [convert_to_tensor(c).astype(work) for c in coordinates]
    if len(coords) != inputs.ndim:
        raise ValueError(
            f"expected {inputs.ndim} coordinate arrays (one per input dim), received {len(coords)}."
        )
    values = inputs.astype(work)
    fill = jnp.asarray(fill_value).astype(inputs.dtype).astype(work)
    total = 0.0
    for combination in itertools.product(*(_taps(c, order) for c in coords)):
        indices = [
            _remap(index, size, fill_mode) for (index, _), size in zip(combination, inputs.shape)
        ]
        inside = jnp.stack([(i >= 0) & (i < size) for i, size in zip(indices, inputs.shape)]).all(
            axis=0
        )
        clipped = tuple(jnp.clip(i, 0, size - 1) for i, size in zip(indices, inputs.shape))
        weight = jnp.prod(jnp.stack([w for _, w in combination]), axis=0)
        total = total + jnp.where(inside, values[clipped], fill) * weight
    return _to_image_dtype(jnp.asarray(total, work), inputs.dtype, _round_half_away)
