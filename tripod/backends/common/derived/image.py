"""Image ops written over a backend's other ops (colour, crop/pad, filters, patches, warps).

Every op works on a batched channels-last view of its input: 3-D images gain a batch axis and
channels-first images are transposed, and the result is put back the same way.
"""

import math

import numpy as np

from tripod.backends import config, dtypes
from tripod.backends.common import conv
from tripod.backends.common.derived import helpers as c

__all__ = [
    "affine_transform",
    "crop_images",
    "elastic_transform",
    "extract_patches",
    "extract_patches_3d",
    "gaussian_blur",
    "hsv_to_rgb",
    "pad_images",
    "perspective_transform",
    "rgb_to_grayscale",
    "rgb_to_hsv",
    "sobel_edges",
    "ssim",
]

_INTERPOLATIONS = ("nearest", "bilinear")
_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")
_GRAY_WEIGHTS = (0.2989, 0.5870, 0.1140)
# Coordinates are clipped to this magnitude before becoming int32 indices.
_COORDINATE_BOUND = 2.0**24


# -- layout --------------------------------------------------------------------------------------
class _Layout:
    """How an op's images were turned into a channels-last batch, to turn results back."""

    def __init__(self, ops, name, images, data_format, ranks=(3, 4)):
        images = ops.convert_to_tensor(images)
        rank = c.rank(ops, images)
        if rank not in ranks:
            raise ValueError(
                f"ops.{name}: images must have rank {' or '.join(map(str, ranks))}, "
                f"got shape {c.shape(ops, images)}."
            )
        self.ops = ops
        self.batched = rank == max(ranks)
        self.channels_first = config.standardize_data_format(data_format) == "channels_first"
        self.dtype = c.dtype_of(ops, images)
        if not self.batched:
            images = ops.expand_dims(images, 0)
        if self.channels_first:
            images = ops.moveaxis(images, 1, -1)
        self.images = images

    def restore(self, result, extra_axes=0):
        """`result` (channels-last batch, `extra_axes` trailing axes) in the input's layout."""
        ops = self.ops
        if self.channels_first:
            channel = c.rank(ops, result) - 1 - extra_axes
            result = ops.moveaxis(result, channel, 1)
        return result if self.batched else ops.squeeze(result, 0)


def _as_input_dtype(ops, result, dtype):
    """Float `result` cast back to the images' `dtype` (rounded first for integer images)."""
    if dtypes.is_int(dtype):
        result = ops.round(result)
    return ops.cast(result, dtype)


def _check_choice(name, argument, value, choices):
    if value not in choices:
        raise ValueError(f"ops.{name}: {argument} must be one of {choices}, received {value!r}.")


# -- colour --------------------------------------------------------------------------------------
def _require_three_channels(ops, name, layout):
    if c.shape(ops, layout.images)[-1] != 3:
        raise ValueError(
            f"ops.{name}: images must have 3 channels, got shape {c.shape(ops, layout.images)}."
        )


def _rgb_channels(ops, name, layout):
    """The three channel planes of float `layout.images`."""
    _require_three_channels(ops, name, layout)
    if not dtypes.is_float(layout.dtype):
        raise ValueError(f"ops.{name}: images must have a float dtype, got {layout.dtype}.")
    return ops.unstack(layout.images, axis=-1)


def rgb_to_grayscale(ops, images, data_format=None):
    layout = _Layout(ops, "rgb_to_grayscale", images, data_format)
    _require_three_channels(ops, "rgb_to_grayscale", layout)
    work = c.to_float(ops, layout.images)
    weights = ops.convert_to_tensor(np.array(_GRAY_WEIGHTS), dtype=c.dtype_of(ops, work))
    gray = ops.expand_dims(ops.tensordot(work, weights, axes=([3], [0])), -1)
    return layout.restore(_as_input_dtype(ops, gray, layout.dtype))


def rgb_to_hsv(ops, images, data_format=None):
    layout = _Layout(ops, "rgb_to_hsv", images, data_format)
    red, green, blue = _rgb_channels(ops, "rgb_to_hsv", layout)
    value = ops.maximum(ops.maximum(red, green), blue)
    spread = ops.subtract(value, ops.minimum(ops.minimum(red, green), blue))
    gray = ops.equal(spread, 0)
    safe_spread = ops.where(gray, 1.0, spread)
    black = ops.equal(value, 0)
    saturation = ops.where(black, 0.0, ops.divide(spread, ops.where(black, 1.0, value)))
    hue = ops.where(
        ops.equal(value, red),
        ops.divide(ops.subtract(green, blue), safe_spread),
        ops.where(
            ops.equal(value, green),
            ops.add(ops.divide(ops.subtract(blue, red), safe_spread), 2.0),
            ops.add(ops.divide(ops.subtract(red, green), safe_spread), 4.0),
        ),
    )
    hue = ops.where(gray, 0.0, ops.mod(ops.divide(hue, 6.0), 1.0))
    return layout.restore(ops.stack([hue, saturation, value], axis=-1))


def hsv_to_rgb(ops, images, data_format=None):
    layout = _Layout(ops, "hsv_to_rgb", images, data_format)
    hue, saturation, value = _rgb_channels(ops, "hsv_to_rgb", layout)
    chroma = ops.multiply(saturation, value)
    planes = []
    for offset in (5.0, 3.0, 1.0):
        k = ops.mod(ops.add(ops.multiply(hue, 6.0), offset), 6.0)
        ramp = ops.clip(ops.minimum(k, ops.subtract(4.0, k)), 0.0, 1.0)
        planes.append(ops.subtract(value, ops.multiply(chroma, ramp)))
    return layout.restore(ops.stack(planes, axis=-1))


# -- crop and pad --------------------------------------------------------------------------------
def _resolve_sides(name, size, before, after, target, what, growing):
    """(before, after) amounts on one axis of `size` from exactly two of the three arguments."""
    given = [v is not None for v in (before, after, target)]
    if sum(given) != 2:
        raise ValueError(
            f"ops.{name}: give exactly two of the {what} before, after and the target size; "
            f"received {before}, {after} and {target}."
        )
    sign = 1 if growing else -1
    if target is None:
        target = size + sign * (before + after)
    elif before is None:
        before = sign * (target - size) - after
    elif after is None:
        after = sign * (target - size) - before
    if min(before, after) < 0 or target <= 0 or sign * (target - size) != before + after:
        raise ValueError(
            f"ops.{name}: the {what} ({before}, {after}) and target size {target} do not fit "
            f"an axis of size {size}."
        )
    return before, after


def crop_images(
    ops,
    images,
    top_cropping=None,
    left_cropping=None,
    bottom_cropping=None,
    right_cropping=None,
    target_height=None,
    target_width=None,
    data_format=None,
):
    layout = _Layout(ops, "crop_images", images, data_format)
    _, height, width, _ = c.shape(ops, layout.images)
    top, bottom = _resolve_sides(
        "crop_images", height, top_cropping, bottom_cropping, target_height, "croppings", False
    )
    left, right = _resolve_sides(
        "crop_images", width, left_cropping, right_cropping, target_width, "croppings", False
    )
    key = (slice(None), slice(top, height - bottom), slice(left, width - right))
    return layout.restore(ops.get_item(layout.images, key))


def pad_images(
    ops,
    images,
    top_padding=None,
    left_padding=None,
    bottom_padding=None,
    right_padding=None,
    target_height=None,
    target_width=None,
    data_format=None,
):
    layout = _Layout(ops, "pad_images", images, data_format)
    _, height, width, _ = c.shape(ops, layout.images)
    rows = _resolve_sides(
        "pad_images", height, top_padding, bottom_padding, target_height, "paddings", True
    )
    cols = _resolve_sides(
        "pad_images", width, left_padding, right_padding, target_width, "paddings", True
    )
    return layout.restore(ops.pad(layout.images, [(0, 0), rows, cols, (0, 0)]))


# -- filters -------------------------------------------------------------------------------------
def _gaussian(ops, size, sigma, dtype):
    """A normalized 1-D Gaussian of `size` taps and standard deviation `sigma`."""
    offsets = ops.convert_to_tensor(np.arange(size) - (size - 1) / 2.0, dtype=dtype)
    sigma = ops.cast(sigma, dtype)
    taps = ops.exp(ops.divide(ops.square(offsets), ops.multiply(ops.square(sigma), -2.0)))
    return ops.divide(taps, ops.sum(taps))


def _filter(ops, images, kernel, padding):
    """Float NHWC `images` convolved per channel with the 2-D `kernel` (cross-correlation)."""
    channels = c.shape(ops, images)[-1]
    rows, cols = c.shape(ops, kernel)
    depthwise = ops.broadcast_to(ops.reshape(kernel, (rows, cols, 1, 1)), (rows, cols, channels, 1))
    return ops.depthwise_conv(images, depthwise, 1, padding, "channels_last")


def _gaussian_kernel(ops, kernel_size, sigma, dtype):
    """The 2-D Gaussian kernel of (height, width) `kernel_size` and `sigma`."""
    sizes = conv.normalize_tuple(kernel_size, 2, "kernel_size")
    sigmas = (sigma, sigma) if not isinstance(sigma, (tuple, list)) else tuple(sigma)
    if len(sigmas) != 2:
        raise ValueError(f"sigma must be one or two numbers, received {sigma!r}.")
    column = ops.expand_dims(_gaussian(ops, sizes[0], sigmas[0], dtype), 1)
    return ops.multiply(column, ops.expand_dims(_gaussian(ops, sizes[1], sigmas[1], dtype), 0))


def gaussian_blur(ops, images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    layout = _Layout(ops, "gaussian_blur", images, data_format)
    work = c.to_float(ops, layout.images)
    kernel = _gaussian_kernel(ops, kernel_size, sigma, c.dtype_of(ops, work))
    blurred = _filter(ops, work, kernel, "same")
    return layout.restore(_as_input_dtype(ops, blurred, layout.dtype))


def sobel_edges(ops, images, data_format=None):
    layout = _Layout(ops, "sobel_edges", images, data_format)
    work = c.to_float(ops, layout.images)
    _, height, width, channels = c.shape(ops, work)
    if any(d is not None and d < 2 for d in (height, width)):
        raise ValueError(f"ops.sobel_edges: images must be at least 2x2, got {c.shape(ops, work)}.")
    vertical = np.array([[-1.0, -2.0, -1.0], [0.0, 0.0, 0.0], [1.0, 2.0, 1.0]])
    kernels = np.stack([vertical, vertical.T], axis=-1)[:, :, None, :]
    kernel = ops.broadcast_to(
        ops.convert_to_tensor(kernels, dtype=c.dtype_of(ops, work)), (3, 3, channels, 2)
    )
    padded = ops.pad(work, [(0, 0), (1, 1), (1, 1), (0, 0)], mode="reflect")
    edges = ops.depthwise_conv(padded, kernel, 1, "valid", "channels_last")
    edges = ops.reshape(edges, c.static_shape((None, height, width, channels, 2)))
    return layout.restore(edges, extra_axes=1)


def ssim(
    ops,
    image1,
    image2,
    max_val=1.0,
    filter_size=11,
    filter_sigma=1.5,
    k1=0.01,
    k2=0.03,
    data_format=None,
):
    first = _Layout(ops, "ssim", image1, data_format)
    second = _Layout(ops, "ssim", image2, data_format)
    if not c.compatible(c.shape(ops, first.images), c.shape(ops, second.images)):
        raise ValueError(
            f"ops.ssim: the images must have the same shape, got {c.shape(ops, image1)} and "
            f"{c.shape(ops, image2)}."
        )
    x, y = c.promote(ops, first.images, second.images, floating=True)
    dtype = c.dtype_of(ops, x)
    kernel = _gaussian_kernel(ops, filter_size, filter_sigma, dtype)
    stats = ops.concatenate([x, y, ops.square(x), ops.square(y), ops.multiply(x, y)], axis=-1)
    mean_x, mean_y, xx, yy, xy = ops.split(_filter(ops, stats, kernel, "valid"), 5, axis=-1)
    c1 = ops.square(ops.multiply(ops.cast(max_val, dtype), k1))
    c2 = ops.square(ops.multiply(ops.cast(max_val, dtype), k2))
    mean_xy = ops.multiply(mean_x, mean_y)
    squares = ops.add(ops.square(mean_x), ops.square(mean_y))
    covariance = ops.subtract(xy, mean_xy)
    variances = ops.subtract(ops.add(xx, yy), squares)
    numerator = ops.multiply(
        ops.add(ops.multiply(mean_xy, 2.0), c1), ops.add(ops.multiply(covariance, 2.0), c2)
    )
    denominator = ops.multiply(ops.add(squares, c1), ops.add(variances, c2))
    score = ops.mean(ops.divide(numerator, denominator), axis=(1, 2, 3))
    return score if first.batched else ops.squeeze(score, 0)


# -- patches -------------------------------------------------------------------------------------
def _patch_axis(ops, x, axis, size, stride, dilation, padding):
    """`x` with spatial `axis` replaced by (positions, size) axes of its patch samples."""
    length = c.shape(ops, x)[axis]
    span = (size - 1) * dilation + 1
    if padding == "same":
        count = -(-length // stride)
        total = max((count - 1) * stride + span - length, 0)
        widths = [(0, 0)] * c.rank(ops, x)
        widths[axis] = (total // 2, total - total // 2)
        x = ops.pad(x, widths)
    else:
        count = (length - span) // stride + 1
        if count < 1:
            raise ValueError(f"a patch spanning {span} does not fit an axis of size {length}.")
    index = np.arange(count)[:, None] * stride + np.arange(size)[None, :] * dilation
    return ops.take(x, ops.convert_to_tensor(index.astype("int32")), axis=axis)


def _patches(ops, name, inputs, size, strides, dilation_rate, padding, data_format, rank):
    """Patches of `size` over the `rank` spatial axes, flattened (window, then channel) last."""
    layout = _Layout(ops, name, inputs, data_format, ranks=(rank + 1, rank + 2))
    sizes = conv.normalize_tuple(size, rank, "size")
    strides = sizes if strides is None else conv.normalize_tuple(strides, rank, "strides")
    dilations = conv.normalize_tuple(dilation_rate, rank, "dilation_rate")
    padding = conv.standardize_padding(padding)
    x = layout.images
    for i in reversed(range(rank)):
        x = _patch_axis(ops, x, 1 + i, sizes[i], strides[i], dilations[i], padding)
    positions = [1 + 2 * i for i in range(rank)]
    windows = [2 + 2 * i for i in range(rank)]
    x = ops.transpose(x, [0, *positions, *windows, 1 + 2 * rank])
    counts = c.shape(ops, x)[1 : 1 + rank]
    patch = math.prod(sizes) * c.shape(ops, x)[-1]
    return layout.restore(ops.reshape(x, c.static_shape((None, *counts, patch))))


def extract_patches(
    ops, images, size, strides=None, dilation_rate=1, padding="valid", data_format=None
):
    return _patches(
        ops, "extract_patches", images, size, strides, dilation_rate, padding, data_format, 2
    )


def extract_patches_3d(
    ops, volumes, size, strides=None, dilation_rate=1, padding="valid", data_format=None
):
    return _patches(
        ops, "extract_patches_3d", volumes, size, strides, dilation_rate, padding, data_format, 3
    )


# -- resampling ----------------------------------------------------------------------------------
def _fold(ops, index, size, fill_mode):
    """Integer `index` folded into [0, size) as `fill_mode` extends the image beyond its edges."""
    if fill_mode in ("constant", "nearest") or (fill_mode == "mirror" and size == 1):
        return ops.clip(index, 0, size - 1)
    if fill_mode == "wrap":
        return ops.mod(index, size)
    period = 2 * size - 2 if fill_mode == "mirror" else 2 * size
    phase = ops.mod(index, period)
    back = period - (0 if fill_mode == "mirror" else 1)
    return ops.where(ops.greater_equal(phase, size), ops.subtract(back, phase), phase)


def _sample(ops, pixels, rows, cols, shape, fill_mode, fill_value):
    """Pixels (N, H*W, C) at int `rows`, `cols` (N, P) of (H, W) = `shape` images, per fill mode."""
    height, width = shape
    flat = ops.add(
        ops.multiply(_fold(ops, rows, height, fill_mode), width), _fold(ops, cols, width, fill_mode)
    )
    values = ops.take_along_axis(pixels, ops.expand_dims(flat, -1), axis=1)
    if fill_mode != "constant":
        return values
    inside = ops.logical_and(
        ops.logical_and(ops.greater_equal(rows, 0), ops.less(rows, height)),
        ops.logical_and(ops.greater_equal(cols, 0), ops.less(cols, width)),
    )
    return ops.where(ops.expand_dims(inside, -1), values, fill_value)


def _warp(ops, images, ys, xs, interpolation, fill_mode, fill_value):
    """Float NHWC `images` resampled at the input coordinates `ys`, `xs` (N, H, W) of each pixel."""
    _, height, width, channels = c.shape(ops, images)
    pixels = ops.reshape(images, c.static_shape((None, height * width, channels)))
    ys = ops.clip(ops.reshape(ys, (-1, height * width)), -_COORDINATE_BOUND, _COORDINATE_BOUND)
    xs = ops.clip(ops.reshape(xs, (-1, height * width)), -_COORDINATE_BOUND, _COORDINATE_BOUND)

    def at(rows, cols):
        rows, cols = ops.cast(rows, "int32"), ops.cast(cols, "int32")
        return _sample(ops, pixels, rows, cols, (height, width), fill_mode, fill_value)

    if interpolation == "nearest":
        result = at(ops.floor(ops.add(ys, 0.5)), ops.floor(ops.add(xs, 0.5)))
    else:
        top, left = ops.floor(ys), ops.floor(xs)
        down, right = ops.subtract(ys, top), ops.subtract(xs, left)
        up, leftward = ops.subtract(1.0, down), ops.subtract(1.0, right)
        result = None
        for dy, wy in ((0.0, up), (1.0, down)):
            for dx, wx in ((0.0, leftward), (1.0, right)):
                weight = ops.expand_dims(ops.multiply(wy, wx), -1)
                term = ops.multiply(weight, at(ops.add(top, dy), ops.add(left, dx)))
                result = term if result is None else ops.add(result, term)
    return ops.reshape(result, c.static_shape((None, height, width, channels)))


def _projected_grid(ops, transform, height, width):
    """Input (ys, xs) of each output pixel under projective `transform` rows (N, 8)."""
    dtype = c.dtype_of(ops, transform)
    a0, a1, a2, b0, b1, b2, c0, c1 = (
        ops.reshape(v, (-1, 1, 1)) for v in ops.unstack(transform, axis=-1)
    )
    xg = ops.reshape(ops.arange(width, dtype=dtype), (1, 1, width))
    yg = ops.reshape(ops.arange(height, dtype=dtype), (1, height, 1))

    def plane(p, q, r):
        return ops.add(ops.add(ops.multiply(p, xg), ops.multiply(q, yg)), r)

    scale = plane(c0, c1, 1.0)
    return ops.divide(plane(b0, b1, b2), scale), ops.divide(plane(a0, a1, a2), scale)


def _check_warp(name, interpolation, fill_mode):
    _check_choice(name, "interpolation", interpolation, _INTERPOLATIONS)
    _check_choice(name, "fill_mode", fill_mode, _FILL_MODES)


def _transform_rows(ops, name, transform, batch, dtype):
    """`transform` as float rows (N, 8), checked against the image `batch` size."""
    transform = ops.cast(transform, dtype)
    if c.rank(ops, transform) == 1:
        transform = ops.expand_dims(transform, 0)
    shape = c.shape(ops, transform)
    if len(shape) != 2 or shape[-1] != 8:
        raise ValueError(f"ops.{name}: transform must have shape (8,) or (N, 8), got {shape}.")
    if None not in (batch, shape[0]) and shape[0] not in (1, batch):
        raise ValueError(f"ops.{name}: {shape[0]} transforms for a batch of {batch} images.")
    return transform


def affine_transform(
    ops,
    images,
    transform,
    interpolation="bilinear",
    fill_mode="constant",
    fill_value=0,
    data_format=None,
):
    _check_warp("affine_transform", interpolation, fill_mode)
    layout = _Layout(ops, "affine_transform", images, data_format)
    work = c.to_float(ops, layout.images)
    batch, height, width, _ = c.shape(ops, work)
    rows = _transform_rows(ops, "affine_transform", transform, batch, c.dtype_of(ops, work))
    ys, xs = _projected_grid(ops, rows, height, width)
    result = _warp(ops, work, ys, xs, interpolation, fill_mode, fill_value)
    return layout.restore(_as_input_dtype(ops, result, layout.dtype))


def _perspective_rows(ops, start_points, end_points, dtype):
    """Projective transform rows (N, 8) mapping each end point to its start point."""
    start, end = ops.cast(start_points, dtype), ops.cast(end_points, dtype)
    for points in (start, end):
        if c.shape(ops, points)[-2:] != (4, 2) or c.rank(ops, points) not in (2, 3):
            raise ValueError(
                f"ops.perspective_transform: points must have shape (4, 2) or (N, 4, 2), "
                f"got {c.shape(ops, points)}."
            )
    start = ops.reshape(start, (-1, 4, 2))
    end = ops.reshape(end, (-1, 4, 2))
    xs, ys = ops.unstack(start, axis=-1)
    xe, ye = ops.unstack(end, axis=-1)
    zero, one = ops.zeros_like(xe), ops.ones_like(xe)
    cross_x = [ops.negative(ops.multiply(xe, xs)), ops.negative(ops.multiply(ye, xs))]
    cross_y = [ops.negative(ops.multiply(xe, ys)), ops.negative(ops.multiply(ye, ys))]
    x_rows = ops.stack([xe, ye, one, zero, zero, zero, *cross_x], axis=-1)
    y_rows = ops.stack([zero, zero, zero, xe, ye, one, *cross_y], axis=-1)
    system = ops.stack([x_rows, y_rows], axis=2)
    targets = ops.stack([xs, ys], axis=2)
    solution = ops.solve(ops.reshape(system, (-1, 8, 8)), ops.reshape(targets, (-1, 8, 1)))
    return ops.squeeze(solution, -1)


def perspective_transform(
    ops,
    images,
    start_points,
    end_points,
    interpolation="bilinear",
    fill_value=0,
    data_format=None,
):
    _check_warp("perspective_transform", interpolation, "constant")
    layout = _Layout(ops, "perspective_transform", images, data_format)
    work = c.to_float(ops, layout.images)
    batch, height, width, _ = c.shape(ops, work)
    rows = _perspective_rows(ops, start_points, end_points, c.dtype_of(ops, work))
    rows = _transform_rows(ops, "perspective_transform", rows, batch, c.dtype_of(ops, work))
    ys, xs = _projected_grid(ops, rows, height, width)
    result = _warp(ops, work, ys, xs, interpolation, "constant", fill_value)
    return layout.restore(_as_input_dtype(ops, result, layout.dtype))


def elastic_transform(
    ops,
    images,
    alpha=20.0,
    sigma=5.0,
    interpolation="bilinear",
    fill_mode="reflect",
    fill_value=0.0,
    seed=None,
    data_format=None,
):
    _check_warp("elastic_transform", interpolation, fill_mode)
    layout = _Layout(ops, "elastic_transform", images, data_format)
    work = c.to_float(ops, layout.images)
    dtype = c.dtype_of(ops, work)
    batch, height, width, _ = c.shape(ops, work)
    noise = ops.uniform((batch, height, width, 2), minval=-1.0, maxval=1.0, dtype=dtype, seed=seed)
    taps = 2 * math.ceil(3.0 * float(sigma)) + 1
    kernel = _gaussian_kernel(ops, taps, float(sigma), dtype)
    dy, dx = ops.unstack(ops.multiply(_filter(ops, noise, kernel, "same"), alpha), axis=-1)
    grid_y = ops.reshape(ops.arange(height, dtype=dtype), (1, height, 1))
    grid_x = ops.reshape(ops.arange(width, dtype=dtype), (1, 1, width))
    result = _warp(
        ops, work, ops.add(grid_y, dy), ops.add(grid_x, dx), interpolation, fill_mode, fill_value
    )
    return layout.restore(_as_input_dtype(ops, result, layout.dtype))
