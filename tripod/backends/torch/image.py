"""The torch backend: image ops (resizing, resampling, coordinate mapping).

Resampling one spatial dim is a product with an (output, input) weight matrix built by
`common.resize` (half-pixel centres, Keras / `jax.image` semantics), so every layout is handled
in place, without moving channels around.
"""

import itertools
import operator
import types

import numpy as np
import torch
import torch.nn.functional as F

from tripod.backends import config
from tripod.backends.common import resize as resampling
from tripod.backends.torch import arrays, creation, elementwise, reductions
from tripod.backends.torch.tensors import convert_to_tensor

__all__ = ["map_coordinates", "resize", "scale_and_translate"]

#: the methods of `scale_and_translate` (resize adds nearest and area)
_KERNEL_METHODS = ("bilinear", "bicubic", "lanczos3", "lanczos5")

_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")

#: the numpy-style ops as one namespace: the shared resampling math is written over such an `xp`
_NUMPY_OPS = types.SimpleNamespace(
    **{
        name: getattr(module, name)
        for module in (elementwise, reductions, creation, arrays)
        for name in module.__all__
    }
)


def _compute_dtype(dtype):
    """The float dtype to resample `dtype` values in: float64 for float64, else float32."""
    return torch.float64 if dtype == torch.float64 else torch.float32


def _round_half_away(values):
    return torch.sign(values) * torch.floor(values.abs() + 0.5)


def _cast_back(values, dtype, rounding=torch.round):
    """Resampled float `values` in the input's `dtype`: integers `rounding`-rounded and clipped."""
    if values.dtype == dtype or dtype.is_floating_point or dtype == torch.bool:
        return values.to(dtype)
    info = torch.iinfo(dtype)
    return rounding(values).clamp(info.min, info.max).to(dtype)


def _apply(x, weights, axis):
    """`x` resampled along `axis` by an (output, input) weight matrix."""
    return torch.tensordot(weights.to(x.dtype), x, dims=([1], [axis])).movedim(0, axis)


def _resize_axis(x, axis, size, method, antialias):
    """`x` resized to `size` along `axis`."""
    length = x.shape[axis]
    if method == "nearest":
        index = torch.as_tensor(resampling.nearest_indices(length, size), device=x.device)
        return x.index_select(axis, index.long())
    weights = resampling.resize_weights(length, size, method, antialias)
    return _apply(x, torch.as_tensor(weights, device=x.device), axis)


def _pad_axes(x, pads, value):
    """`x` padded with `value` by {axis: (before, after)}."""
    flat = []
    for axis in reversed(range(min(pads), x.ndim)):
        flat.extend(pads.get(axis, (0, 0)))
    return F.pad(x, flat, value=value)


def _image_axes(images, data_format):
    """The (height, width) axes of a rank-3 or rank-4 image tensor."""
    if images.ndim not in (3, 4):
        raise ValueError(
            f"images must have rank 3 (H, W, C) or 4 (N, H, W, C), got shape {tuple(images.shape)}."
        )
    height = images.ndim - 3 if data_format == "channels_last" else images.ndim - 2
    return height, height + 1


def _to_aspect(images, axes, size, crop, pad, fill_value):
    """`images` cropped or padded (centred) to the aspect ratio of `size`."""
    (h_axis, w_axis), (height, width) = axes, (images.shape[a] for a in axes)
    if crop:
        top, left, crop_h, crop_w = resampling.crop_to_aspect_box(height, width, *size)
        return images.narrow(h_axis, top, crop_h).narrow(w_axis, left, crop_w)
    if pad:
        rows, cols = resampling.pad_to_aspect_amounts(height, width, *size)
        return _pad_axes(images, {h_axis: rows, w_axis: cols}, fill_value)
    return images


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
    images = convert_to_tensor(images)
    method = resampling.standardize_method(interpolation)
    data_format = config.standardize_data_format(data_format)
    size = tuple(operator.index(s) for s in size)
    if len(size) != 2 or min(size) <= 0:
        raise ValueError(f"size must be (height, width) positive ints, got {size!r}.")
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("crop_to_aspect_ratio and pad_to_aspect_ratio cannot both be True.")
    if fill_mode != "constant":
        raise ValueError(f"fill_mode must be 'constant', got {fill_mode!r}.")
    axes = _image_axes(images, data_format)
    values = _to_aspect(images, axes, size, crop_to_aspect_ratio, pad_to_aspect_ratio, fill_value)
    if method != "nearest":
        values = values.to(_compute_dtype(images.dtype))
    for axis, length in zip(axes, size):
        values = _resize_axis(values, axis, length, method, antialias)
    return _cast_back(values, images.dtype)


def _per_dim_values(value, count, name):
    """`value` (a sequence or 1-D tensor of `count` numbers) as a list of scalars."""
    if isinstance(value, (torch.Tensor, np.ndarray)):
        value = list(value.reshape(-1)) if value.ndim else [value]
    else:
        value = list(value)
    if len(value) != count:
        raise ValueError(f"{name} needs one value per spatial dim ({count}), got {len(value)}.")
    return value


def _translate_weights(length, size, scale, translation, method, antialias, device):
    """The (size, length) weight matrix of one dim, built with torch ops when scale or
    translation is a tensor (so it stays traceable), else with NumPy."""
    if isinstance(scale, torch.Tensor) or isinstance(translation, torch.Tensor):
        scale, translation = (convert_to_tensor(v, "float32") for v in (scale, translation))
        return resampling.scale_translate_weights(
            _NUMPY_OPS, length, size, scale, translation, method, antialias
        )
    weights = resampling.scale_translate_weights(
        np, length, size, np.float32(scale), np.float32(translation), method, antialias
    )
    return torch.as_tensor(weights, dtype=torch.float32, device=device)


def scale_and_translate(
    images, output_shape, scale, translation, spatial_dims, method, antialias=True
):
    images = convert_to_tensor(images)
    method = resampling.standardize_method(method, _KERNEL_METHODS)
    output_shape, spatial_dims = tuple(output_shape), tuple(spatial_dims)
    if len(output_shape) != images.ndim:
        raise ValueError(
            f"output_shape {output_shape} must have the rank of images {tuple(images.shape)}."
        )
    axes = [a % images.ndim for a in spatial_dims]
    kept = [d for d in range(images.ndim) if d not in axes]
    if any(images.shape[d] != output_shape[d] for d in kept):
        raise ValueError(f"output_shape {output_shape} may only differ in spatial_dims {axes}.")
    scales = _per_dim_values(scale, len(axes), "scale")
    translations = _per_dim_values(translation, len(axes), "translation")
    values = images.to(_compute_dtype(images.dtype))
    for axis, s, t in zip(axes, scales, translations):
        weights = _translate_weights(
            images.shape[axis], output_shape[axis], s, t, method, antialias, images.device
        )
        values = _apply(values, weights, axis)
    return _cast_back(values, images.dtype)


def _fold_index(index, size, fill_mode):
    """Integer indices mapped into [0, size) by `fill_mode`, and whether each was inside."""
    inside = (index >= 0) & (index < size)
    if fill_mode == "wrap":
        index = torch.remainder(index, size)
    elif fill_mode == "mirror":
        period = max(2 * (size - 1), 1)
        index = torch.remainder(index, period)
        index = torch.where(index >= size, period - index, index)
    elif fill_mode == "reflect":
        index = torch.remainder(index, 2 * size)
        index = torch.where(index >= size, 2 * size - 1 - index, index)
    return index.clamp(0, size - 1), inside


def _taps(coordinate, order):
    """[(integer index, weight)] of the input samples interpolating at `coordinate`."""
    if order == 0:
        return [(torch.floor(coordinate + 0.5).long(), None)]
    low = torch.floor(coordinate)
    upper = coordinate - low
    return [(low.long(), 1.0 - upper), (low.long() + 1, upper)]


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0):
    inputs = convert_to_tensor(inputs)
    if order not in (0, 1):
        raise ValueError(f"order must be 0 (nearest) or 1 (linear), got {order!r}.")
    if fill_mode not in _FILL_MODES:
        raise ValueError(f"fill_mode must be one of {_FILL_MODES}, got {fill_mode!r}.")
    coordinates = [convert_to_tensor(c) for c in coordinates]
    if len(coordinates) != inputs.ndim:
        raise ValueError(
            f"coordinates need one entry per input dim ({inputs.ndim}), got {len(coordinates)}."
        )
    dtype = _compute_dtype(inputs.dtype)
    coordinates = [c.to(dtype) for c in torch.broadcast_tensors(*coordinates)]
    flat_input = inputs.reshape(-1).to(dtype)
    fill = torch.as_tensor(fill_value, device=inputs.device).to(inputs.dtype).to(dtype)
    per_dim = [_taps(c, order) for c in coordinates]
    result = torch.zeros(coordinates[0].shape, dtype=dtype, device=inputs.device)
    for corner in itertools.product(*per_dim):
        flat, inside, weight = 0, True, 1.0
        for (index, w), size in zip(corner, inputs.shape):
            index, valid = _fold_index(index, size, fill_mode)
            flat, inside = flat * size + index, inside & valid
            weight = weight if w is None else weight * w
        value = flat_input.take(flat) if inputs.numel() else torch.zeros_like(result)
        if fill_mode == "constant":
            value = torch.where(inside, value, fill)
        result = result + value * weight
    return _cast_back(result, inputs.dtype, _round_half_away)
