"""resize, scale_and_translate and map_coordinates written once over a NumPy-like array module.

The numpy and jax backends share this code: each passes an `Arrays` naming its array module
(`numpy` or `jax.numpy`) and the few things that differ between them. Resampling multiplies
each spatial dim by a weight matrix of `common.resize`, so every backend resizes with the same
numbers; integer images are rounded back to their dtype and clipped to its range, as in Keras.
"""

import itertools
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from tripod.backends import dtypes
from tripod.backends.common import conv as conv_math
from tripod.backends.common import resize as resize_math

FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


class Arrays(NamedTuple):
    """What the shared image code needs from a backend whose tensors follow NumPy's API."""

    xp: Any  #: the array module: numpy or jax.numpy
    convert: Callable  #: the backend's convert_to_tensor
    work_dtype: Callable  #: an image's dtype -> the float dtype to resample it in
    index_dtype: Any  #: the integer dtype of gather positions


def _round_half_away(xp, values):
    return xp.sign(values) * xp.floor(xp.abs(values) + 0.5)


def _to_image_dtype(xp, values, dtype, half_away=False):
    """Float `values` as an image of `dtype`: ints are rounded (half to even, or half away from
    zero when `half_away`) and clipped to the dtype's range."""
    name = dtypes.standardize_dtype(dtype)
    if dtypes.is_int(name):
        info = np.iinfo(name)
        rounded = _round_half_away(xp, values) if half_away else xp.round(values)
        values = xp.clip(rounded, info.min, info.max)
    return xp.asarray(values).astype(dtypes.to_numpy(name), copy=False)


def _along(xp, x, axis, weights):
    """`x` resampled along `axis` by an (output, input) weight matrix."""
    return xp.moveaxis(xp.tensordot(weights, x, axes=([1], [axis])), 0, axis)


def _resample(xp, x, axis, size, method, antialias):
    """`x` resized to `size` along `axis` with `method`."""
    if method == "nearest":
        return xp.take(x, resize_math.nearest_indices(x.shape[axis], size), axis=axis)
    weights = resize_math.resize_weights(x.shape[axis], size, method, antialias, "float64")
    return _along(xp, x, axis, xp.asarray(weights, x.dtype))


def _size_pair(size):
    values = tuple(int(s) for s in size) if isinstance(size, (list, tuple)) else None
    if values is None or len(values) != 2 or min(values) <= 0:
        raise ValueError(
            f"size must be a tuple of two positive ints (height, width), received {size!r}."
        )
    return values


def resize(
    arrays,
    images,
    size,
    interpolation,
    antialias,
    crop_to_aspect_ratio,
    pad_to_aspect_ratio,
    fill_mode,
    fill_value,
    data_format,
):
    """`ops.resize` on `arrays`."""
    xp = arrays.xp
    method = resize_math.standardize_method(interpolation)
    data_format = conv_math.standardize_data_format(data_format)
    height, width = _size_pair(size)
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("only one of crop_to_aspect_ratio and pad_to_aspect_ratio can be True.")
    if fill_mode != "constant":
        raise ValueError(f"fill_mode must be 'constant', received {fill_mode!r}.")
    images = arrays.convert(images)
    if images.ndim not in (3, 4):
        raise ValueError(f"images must have rank 3 or 4, received shape {images.shape}.")
    x = images if images.ndim == 4 else images[None]
    if data_format == "channels_first":
        x = xp.moveaxis(x, 1, -1)
    x = x.astype(arrays.work_dtype(images.dtype))
    in_height, in_width = x.shape[1:3]
    if crop_to_aspect_ratio:
        top, left, crop_h, crop_w = resize_math.crop_to_aspect_box(
            in_height, in_width, height, width
        )
        x = x[:, top : top + crop_h, left : left + crop_w]
    elif pad_to_aspect_ratio:
        pad_h, pad_w = resize_math.pad_to_aspect_amounts(in_height, in_width, height, width)
        x = xp.pad(x, [(0, 0), pad_h, pad_w, (0, 0)], constant_values=fill_value)
    x = _resample(xp, _resample(xp, x, 1, height, method, antialias), 2, width, method, antialias)
    if data_format == "channels_first":
        x = xp.moveaxis(x, -1, 1)
    return _to_image_dtype(xp, x if images.ndim == 4 else x[0], images.dtype)


def scale_and_translate(
    arrays, images, output_shape, scale, translation, spatial_dims, method, antialias
):
    """`ops.scale_and_translate` on `arrays`."""
    xp = arrays.xp
    method = resize_math.standardize_method(method, resize_math.INTERPOLATIONS[1:5])
    images = arrays.convert(images)
    work = arrays.work_dtype(images.dtype)
    x = images.astype(work)
    output_shape = tuple(int(s) for s in output_shape)
    spatial_dims = tuple(int(d) % x.ndim for d in spatial_dims)
    scale = xp.asarray(arrays.convert(scale), dtype=work).reshape(-1)
    translation = xp.asarray(arrays.convert(translation), dtype=work).reshape(-1)
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
            xp, x.shape[axis], output_shape[axis], scale[i], translation[i], method, antialias, work
        )
        x = _along(xp, x, axis, weights)
    return _to_image_dtype(xp, x, images.dtype)


# -- map_coordinates -----------------------------------------------------------------------------
def _remap(xp, index, size, mode):
    """Integer tap positions mapped into [0, size) by `mode` (constant leaves them as they are)."""
    if mode == "nearest":
        return xp.clip(index, 0, size - 1)
    if mode == "wrap":
        return xp.mod(index, size)
    if mode == "mirror":
        if size == 1:
            return xp.zeros_like(index)
        period = 2 * (size - 1)
        return xp.abs(xp.mod(index + size - 1, period) - (size - 1))
    if mode == "reflect":
        folded = xp.mod(index, 2 * size)
        return xp.where(folded < size, folded, 2 * size - 1 - folded)
    return index


def _taps(xp, coordinate, order, index_dtype):
    """[(integer position, weight)] of the interpolation taps along one dim."""
    if order == 0:
        return [(xp.floor(coordinate + 0.5).astype(index_dtype), xp.ones_like(coordinate))]
    lower = xp.floor(coordinate)
    frac = coordinate - lower
    return [(lower.astype(index_dtype), 1.0 - frac), (lower.astype(index_dtype) + 1, frac)]


def map_coordinates(arrays, inputs, coordinates, order, fill_mode, fill_value):
    """`ops.map_coordinates` on `arrays`."""
    xp = arrays.xp
    inputs = arrays.convert(inputs)
    if order not in (0, 1):
        raise ValueError(f"order must be 0 or 1, received {order!r}.")
    if fill_mode not in FILL_MODES:
        raise ValueError(f"fill_mode must be one of {FILL_MODES}, received {fill_mode!r}.")
    work = arrays.work_dtype(inputs.dtype)
    coords = [xp.asarray(arrays.convert(c), dtype=work) for c in coordinates]
    if len(coords) != inputs.ndim:
        raise ValueError(
            f"expected {inputs.ndim} coordinate arrays (one per input dim), received {len(coords)}."
        )
    values = inputs.astype(work)
    fill = xp.asarray(fill_value).astype(inputs.dtype).astype(work)
    total = 0.0
    taps = (_taps(xp, c, order, arrays.index_dtype) for c in coords)
    for combination in itertools.product(*taps):
        indices = [
            _remap(xp, index, size, fill_mode)
            for (index, _), size in zip(combination, inputs.shape)
        ]
        inside = xp.stack([(i >= 0) & (i < size) for i, size in zip(indices, inputs.shape)])
        clipped = tuple(xp.clip(i, 0, size - 1) for i, size in zip(indices, inputs.shape))
        weight = xp.prod(xp.stack([w for _, w in combination]), axis=0)
        total = total + xp.where(inside.all(axis=0), values[clipped], fill) * weight
    return _to_image_dtype(xp, xp.asarray(total, work), inputs.dtype, half_away=True)
