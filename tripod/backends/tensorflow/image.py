"""The tensorflow backend: image ops (resize, map_coordinates, scale_and_translate, warps).

Resampling is a product with per-dim weight matrices built by `common/resize.py` (half-pixel
centres, Keras 3 / JAX semantics), so every backend interpolates identically. Projective warps
run TensorFlow's fused kernel where it computes what the shared derived warp computes.
"""

import itertools
import types

import tensorflow as tf

import tripod.backends
from tripod.backends import config, dtypes
from tripod.backends.common import dtype_rules
from tripod.backends.common import resize as resize_math
from tripod.backends.common.derived import image as derived
from tripod.backends.tensorflow.core import shape as tensor_shape
from tripod.backends.tensorflow.tensors import convert_to_tensor

__all__ = [
    "affine_transform",
    "map_coordinates",
    "perspective_transform",
    "resize",
    "scale_and_translate",
]


def _sum(x, axis=None, keepdims=False):
    return tf.reduce_sum(x, axis=axis, keepdims=keepdims)


def _where(condition, x, y):
    """`tf.where` taking a Python number for one branch (given the other branch's dtype)."""
    dtype = (x if tf.is_tensor(x) else y).dtype
    return tf.where(condition, tf.cast(x, dtype), tf.cast(y, dtype))


#: the numpy-named functions `common/resize.py` builds weight matrices with, for tensor scales
_XP = types.SimpleNamespace(
    arange=lambda n, dtype: tf.range(n, dtype=dtype),
    abs=tf.abs,
    maximum=tf.maximum,
    minimum=tf.minimum,
    sin=tf.sin,
    sum=_sum,
    where=_where,
    logical_and=tf.logical_and,
)


def _compute_dtype(dtype):
    """The float dtype resampling a `dtype` image runs in: float64 for 64-bit floats and for
    integers float32 cannot hold exactly, else float32."""
    wide = dtype == tf.float64 or (dtype.is_integer and dtype.size >= 4)
    return tf.float64 if wide else tf.float32


def _round_half_away(x):
    return tf.sign(x) * tf.floor(tf.abs(x) + 0.5)


def _finish(x, dtype, rounding=tf.round):
    """Resampled float values as `dtype`: integers are rounded and clipped to their range."""
    if dtype.is_integer:
        x = tf.clip_by_value(rounding(x), dtype.min, dtype.max)
    return tf.cast(x, dtype)


def _resample_axis(x, axis, weights):
    """`x` with dim `axis` replaced by `weights @ x` along it ((out, in) weights)."""
    y = tf.tensordot(x, tf.cast(weights, x.dtype), [[axis], [1]])
    rank = x.shape.rank
    return tf.transpose(y, [*range(axis), rank - 1, *range(axis, rank - 1)])


# -- resize --------------------------------------------------------------------------------------
def _target_size(size):
    size = tuple(size)
    if len(size) != 2 or not all(isinstance(s, int) and s > 0 for s in size):
        raise ValueError(f"size must be two positive ints (height, width), received {size!r}.")
    return size


def _to_aspect(x, size, crop, pad, fill_value):
    """An NHWC image centre-cropped or padded to the target's aspect ratio."""
    height, width = x.shape[1:3]
    if crop:
        top, left, h, w = resize_math.crop_to_aspect_box(height, width, *size)
        return x[:, top : top + h, left : left + w]
    if pad:
        rows, cols = resize_math.pad_to_aspect_amounts(height, width, *size)
        return tf.pad(x, [(0, 0), rows, cols, (0, 0)], constant_values=fill_value)
    return x


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
    data_format = config.standardize_data_format(data_format)
    method = resize_math.standardize_method(interpolation)
    size = _target_size(size)
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("crop_to_aspect_ratio and pad_to_aspect_ratio cannot both be True.")
    if fill_mode != "constant":
        raise ValueError(f"fill_mode must be 'constant', received {fill_mode!r}.")
    images = convert_to_tensor(images)
    if images.shape.rank not in (3, 4):
        raise ValueError(f"images must have rank 3 or 4, received shape {images.shape}.")
    compute = _compute_dtype(images.dtype)
    x = tf.cast(images if images.shape.rank == 4 else images[None], compute)
    if data_format == "channels_first":
        x = tf.transpose(x, [0, 2, 3, 1])
    if None in x.shape[1:3]:
        x = _resize_unknown_size(
            x, size, method, antialias, crop_to_aspect_ratio or pad_to_aspect_ratio
        )
    else:
        x = _to_aspect(x, size, crop_to_aspect_ratio, pad_to_aspect_ratio, fill_value)
    for axis, out in zip((1, 2), size if None not in x.shape[1:3] else ()):
        if method == "nearest":
            x = tf.gather(x, resize_math.nearest_indices(x.shape[axis], out), axis=axis)
        else:
            weights = resize_math.resize_weights(
                x.shape[axis], out, method, antialias, compute.name
            )
            x = _resample_axis(x, axis, weights)
    x = _finish(x, images.dtype)
    if data_format == "channels_first":
        x = tf.transpose(x, [0, 3, 1, 2])
    return x if images.shape.rank == 4 else x[0]


def _resize_unknown_size(x, size, method, antialias, to_aspect):
    """Images whose height or width is known only when the graph runs (a `tf.data` map after
    decoding files): TensorFlow's own resize, which takes the sizes from the tensor."""
    if to_aspect:
        raise ValueError(
            "resize: crop_to_aspect_ratio / pad_to_aspect_ratio need images of a known height and "
            f"width, received shape {x.shape}."
        )
    return tf.image.resize(x, size, method=method, antialias=antialias)


def scale_and_translate(
    images, output_shape, scale, translation, spatial_dims, method, antialias=True
):
    method = resize_math.standardize_method(
        method, allowed=("bilinear", "bicubic", "lanczos3", "lanczos5")
    )
    images = convert_to_tensor(images)
    rank = images.shape.rank
    spatial_dims = tuple(d % rank for d in spatial_dims)
    output_shape = tuple(output_shape)
    compute = _compute_dtype(images.dtype)
    scale = tf.reshape(tf.cast(convert_to_tensor(scale), compute), [-1])
    translation = tf.reshape(tf.cast(convert_to_tensor(translation), compute), [-1])
    if len(output_shape) != rank or not scale.shape[0] == translation.shape[0] == len(spatial_dims):
        raise ValueError(
            f"output_shape {output_shape} must have one size per dim of images {images.shape}, "
            "scale and translation one value per spatial dim."
        )
    for axis in range(rank):
        if axis not in spatial_dims and images.shape[axis] not in (None, output_shape[axis]):
            raise ValueError("output_shape may differ from the images' shape only in spatial_dims.")
    x = tf.cast(images, compute)
    for i, axis in enumerate(spatial_dims):
        sizes = (x.shape[axis], output_shape[axis])
        weights = resize_math.scale_translate_weights(
            _XP, *sizes, scale[i], translation[i], method, antialias, compute.name
        )
        x = _resample_axis(x, axis, weights)
    return _finish(x, images.dtype)


# -- map_coordinates -----------------------------------------------------------------------------
def _wrap(index, size):
    return tf.math.floormod(index, size)


def _mirror(index, size):
    """Mirror without repeating the edge: (d c b | a b c d | c b a)."""
    if size == 1:
        return tf.zeros_like(index)
    period = 2 * (size - 1)
    index = tf.math.floormod(index, period)
    return tf.where(index < size, index, period - index)


def _reflect(index, size):
    """Reflect repeating the edge: (d c b a | a b c d | d c b a)."""
    index = tf.math.floormod(index, 2 * size)
    return tf.where(index < size, index, 2 * size - 1 - index)


def _clip(index, size):
    return tf.clip_by_value(index, 0, size - 1)


_INDEX_FIXERS = {
    "constant": _clip,  # out-of-range taps are then replaced by fill_value
    "nearest": _clip,
    "wrap": _wrap,
    "mirror": _mirror,
    "reflect": _reflect,
}


def _taps(coordinate, order):
    """[(integer index, weight)] of the input samples one coordinate interpolates."""
    lower = tf.floor(coordinate)
    upper_weight = coordinate - lower  # exact, unlike coordinate + 0.5 near a half
    lower = tf.cast(lower, tf.int32)
    if order == 0:
        return [(lower + tf.cast(upper_weight >= 0.5, tf.int32), None)]
    return [(lower, 1.0 - upper_weight), (lower + 1, upper_weight)]


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0):
    inputs = convert_to_tensor(inputs)
    coordinates = convert_to_tensor(coordinates)
    if order not in (0, 1):
        raise ValueError(f"order must be 0 or 1, received {order!r}.")
    if fill_mode not in _INDEX_FIXERS:
        raise ValueError(
            f"fill_mode must be one of {sorted(_INDEX_FIXERS)}, received {fill_mode!r}."
        )
    ndim = inputs.shape.rank
    if coordinates.shape[0] != ndim:
        raise ValueError(
            f"coordinates must hold one coordinate array per input dim ({ndim}), received "
            f"{coordinates.shape[0]}."
        )
    compute = _compute_dtype(inputs.dtype)
    values = tf.cast(inputs, compute)
    coordinates = tf.cast(coordinates, compute)
    taps = [_taps(coordinates[d], order) for d in range(ndim)]
    fill = tf.cast(tf.cast(fill_value, inputs.dtype), compute)  # as an element of the input
    result = tf.zeros(tf.shape(coordinates)[1:], compute)
    for corner in itertools.product(*taps):
        sample = _corner_samples(values, [index for index, _ in corner], fill_mode, fill)
        for _, weight in corner:
            if weight is not None:
                sample = sample * weight
        result = result + sample
    return _finish(result, inputs.dtype, _round_half_away)


def _corner_samples(values, indices, fill_mode, fill):
    """`values` at one integer index per dim, out-of-range indices resolved by `fill_mode`."""
    shape = tensor_shape(values)  # sizes known only at run time (a tf.data batch) as tensors
    fixed = [_INDEX_FIXERS[fill_mode](index, shape[d]) for d, index in enumerate(indices)]
    samples = tf.gather_nd(values, tf.stack(fixed, axis=-1))
    if fill_mode != "constant":
        return samples
    inside = [(index >= 0) & (index < shape[d]) for d, index in enumerate(indices)]
    return tf.where(tf.reduce_all(tf.stack(inside), axis=0), samples, fill)


# -- projective warps ----------------------------------------------------------------------------
# TensorFlow's ImageProjectiveTransformV3 folds the sampling coordinate into the image before it
# interpolates; for these fill modes that equals the reference's folding of each integer tap
# ("wrap" differs between the last and first pixel, and the kernel has no "mirror").
_KERNEL_FILL_MODES = ("constant", "nearest", "reflect")


def _fits_kernel(images, fill_mode, fill_value):
    """Whether the fused kernel warps `images` as the derived warp does: float32 work (the kernel
    computes coordinates in float32), a kernel fill mode and a scalar fill value."""
    work = dtype_rules.float_dtype(dtypes.standardize_dtype(images.dtype))
    scalar = convert_to_tensor(fill_value).shape.rank == 0
    return work == "float32" and fill_mode in _KERNEL_FILL_MODES and scalar


def _kernel_warp(name, images, make_rows, interpolation, fill_mode, fill_value, data_format):
    """`images` resampled by the fused kernel through the rows (N, 8) `make_rows(ops)` gives,
    with the derived warp's argument checks, layouts and dtypes."""
    ops = tripod.backends.load("tensorflow")
    derived._check_warp(name, interpolation, fill_mode)
    layout = derived._Layout(ops, name, images, data_format)
    work = tf.cast(layout.images, tf.float32)
    rows = derived._transform_rows(ops, name, make_rows(ops), work.shape[0], "float32")
    size = work.shape[1:3] if work.shape[1:3].is_fully_defined() else tf.shape(work)[1:3]
    # Outside "constant" the kernel still multiplies the fill value by zero-weight edge taps.
    fill = fill_value if fill_mode == "constant" else 0.0
    warped = tf.raw_ops.ImageProjectiveTransformV3(
        images=work,
        transforms=rows,
        output_shape=size,
        fill_value=tf.cast(fill, tf.float32),
        interpolation=interpolation.upper(),
        fill_mode=fill_mode.upper(),
    )
    return layout.restore(derived._as_input_dtype(ops, warped, layout.dtype))


def affine_transform(
    images,
    transform,
    interpolation="bilinear",
    fill_mode="constant",
    fill_value=0,
    data_format=None,
):
    images = convert_to_tensor(images)
    if not _fits_kernel(images, fill_mode, fill_value):
        return derived.affine_transform(
            tripod.backends.load("tensorflow"),
            images,
            transform,
            interpolation,
            fill_mode,
            fill_value,
            data_format,
        )
    return _kernel_warp(
        "affine_transform",
        images,
        lambda ops: transform,
        interpolation,
        fill_mode,
        fill_value,
        data_format,
    )


def perspective_transform(
    images, start_points, end_points, interpolation="bilinear", fill_value=0, data_format=None
):
    images = convert_to_tensor(images)
    if not _fits_kernel(images, "constant", fill_value):
        return derived.perspective_transform(
            tripod.backends.load("tensorflow"),
            images,
            start_points,
            end_points,
            interpolation,
            fill_value,
            data_format,
        )

    def rows(ops):
        return derived._perspective_rows(ops, start_points, end_points, "float32")

    return _kernel_warp(
        "perspective_transform", images, rows, interpolation, "constant", fill_value, data_format
    )
