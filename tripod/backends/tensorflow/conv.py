"""The tensorflow backend: convolution, pooling and sliding-block ops, sharing one layout scheme.

Spatial ops run channels_last (TensorFlow's CPU kernels lack NCHW): channels_first inputs are
transposed in and out. Padding, output-length and window math comes from `common/conv.py`.
"""

import numpy as np
import tensorflow as tf

from tripod.backends.common import conv as conv_math
from tripod.backends.common import fold as fold_math
from tripod.backends.tensorflow.tensors import convert_to_tensor, promote, to_float, wide_float

__all__ = [
    "adaptive_average_pool",
    "adaptive_max_pool",
    "average_pool",
    "conv",
    "conv_transpose",
    "depthwise_conv",
    "fold",
    "max_pool",
    "separable_conv",
    "unfold",
]


# -- layout helpers ------------------------------------------------------------------------------
def _to_channels_last(x, data_format):
    if data_format == "channels_last":
        return x
    return tf.transpose(x, [0, *range(2, x.shape.rank), 1])


def _from_channels_last(x, data_format):
    if data_format == "channels_last":
        return x
    rank = x.shape.rank
    return tf.transpose(x, [0, rank - 1, *range(1, rank - 1)])


def _spatial_input(inputs, data_format, name="inputs"):
    """(channels_last tensor, standardized data_format, number of spatial dims)."""
    data_format = conv_math.standardize_data_format(data_format)
    x = convert_to_tensor(inputs)
    rank = conv_math.spatial_rank(x.shape.rank, name)
    return _to_channels_last(x, data_format), data_format, rank


def _check_kernel(kernel, rank, name="kernel"):
    if kernel.shape.rank != rank + 2:
        raise ValueError(
            f"{name} must have rank {rank + 2} (spatial dims, in, out) for {rank}-D inputs, "
            f"got shape {kernel.shape}."
        )


def _pad_or_crop(x, amounts):
    """Pad (positive) or crop (negative) each spatial dim of a channels_last tensor."""
    paddings = [(0, 0)] + [(max(b, 0), max(a, 0)) for b, a in amounts] + [(0, 0)]
    x = tf.pad(x, paddings)
    crops = tuple(
        slice(max(-b, 0), x.shape[i + 1] - max(-a, 0)) for i, (b, a) in enumerate(amounts)
    )
    return x[(slice(None), *crops)]


def _dilate(x, axis, rate):
    """`x` with `rate - 1` zeros inserted between neighbours along static `axis`."""
    if rate == 1:
        return x
    size = x.shape[axis]
    x = tf.expand_dims(x, axis + 1)
    x = tf.pad(x, [(0, 0)] * (axis + 1) + [(0, rate - 1)] + [(0, 0)] * (x.shape.rank - axis - 2))
    shape = tf.concat([tf.shape(x)[:axis], [size * rate], tf.shape(x)[axis + 2 :]], 0)
    x = tf.reshape(x, shape)
    return tf.gather(x, tf.range((size - 1) * rate + 1), axis=axis)


# -- convolution ---------------------------------------------------------------------------------
def _float_operands(*xs):
    """Same-dtype tensors as floats TensorFlow's conv kernels take (non-floats widened)."""
    dtype = xs[0].dtype
    return xs if dtype.is_floating else tuple(tf.cast(x, wide_float(dtype)) for x in xs)


_CHANNELS_LAST = {3: "NWC", 4: "NHWC", 5: "NDHWC"}


def _plain_conv(x, kernel, strides, padding, dilation):
    """Channels_last convolution with the kernel's input channels dividing x's (groups)."""
    groups = conv_math.check_conv_channels(x.shape[-1], kernel.shape[-2])
    if kernel.shape[-1] % groups:
        raise ValueError(
            f"the kernel's {kernel.shape[-1]} output channels do not split into {groups} groups."
        )
    if groups > 1 and kernel.shape[-2] == 1 and x.shape.rank < 5:
        return _grouped_as_depthwise(x, kernel, strides, padding, dilation, groups)
    if groups > 1:  # TensorFlow's CPU convolutions have no grouped gradient (nor grouped Conv3D)
        xs = tf.split(x, groups, axis=-1)
        ks = tf.split(kernel, groups, axis=-1)
        return tf.concat(
            [_plain_conv(a, b, strides, padding, dilation) for a, b in zip(xs, ks)], -1
        )
    if max(strides) == 1 or max(dilation) == 1:
        return tf.nn.convolution(
            x,
            kernel,
            strides,
            padding.upper(),
            dilations=dilation,
            data_format=_CHANNELS_LAST[x.shape.rank],
        )
    # TensorFlow takes strides or dilation, not both: pad, convolve densely, then subsample.
    pads = conv_math.conv_padding(x.shape[1:-1], kernel.shape[:-2], strides, padding, dilation)
    x = tf.pad(x, [(0, 0), *pads, (0, 0)])
    dense = tf.nn.convolution(
        x, kernel, padding="VALID", dilations=dilation, data_format=_CHANNELS_LAST[x.shape.rank]
    )
    return dense[(slice(None), *(slice(None, None, s) for s in strides))]


def _grouped_as_depthwise(x, kernel, strides, padding, dilation, groups):
    """A 1-D or 2-D conv of one input channel a group (ConvNeXt's `Conv2D(groups=channels)`)
    as TensorFlow's depthwise kernel: one op, where a split would make one conv per channel."""
    filters = tf.reshape(kernel, [*kernel.shape[:-2], groups, kernel.shape[-1] // groups])
    if x.shape.rank == 3:
        out = _depthwise_2d(x[:, None], filters[None], (1, *strides), padding, (1, *dilation))
        return out[:, 0]
    return _depthwise_2d(x, filters, strides, padding, dilation)


def _conv(x, kernel, strides, padding, dilation_rate):
    """Channels_last convolution of same-dtype `x` and `kernel` (any dtype, result in it)."""
    rank = x.shape.rank - 2
    strides = conv_math.normalize_tuple(strides, rank, "strides")
    dilation = conv_math.normalize_tuple(dilation_rate, rank, "dilation_rate")
    padding = conv_math.standardize_padding(padding)
    a, b = _float_operands(x, kernel)
    return tf.cast(_plain_conv(a, b, strides, padding, dilation), x.dtype)


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    x, data_format, rank = _spatial_input(inputs, data_format)
    x, kernel = promote(x, kernel)
    _check_kernel(kernel, rank)
    return _from_channels_last(_conv(x, kernel, strides, padding, dilation_rate), data_format)


def _depthwise(x, kernel, strides, padding, dilation_rate):
    """Channels_last depthwise conv: kernel (spatial..., in, multiplier) as a grouped conv."""
    if kernel.shape[-2] != x.shape[-1]:
        raise ValueError(
            f"the kernel's input channels ({kernel.shape[-2]}) must equal the inputs' "
            f"channels ({x.shape[-1]})."
        )
    rank = x.shape.rank - 2
    if rank == 3:  # TensorFlow has no 3-D depthwise kernel: a grouped conv
        grouped = tf.reshape(kernel, [*kernel.shape[:-2], 1, kernel.shape[-2] * kernel.shape[-1]])
        return _conv(x, grouped, strides, padding, dilation_rate)
    strides = conv_math.normalize_tuple(strides, rank, "strides")
    dilation = conv_math.normalize_tuple(dilation_rate, rank, "dilation_rate")
    padding = conv_math.standardize_padding(padding)
    a, b = _float_operands(x, kernel)
    if rank == 1:  # a 1-D depthwise conv is a 2-D one over a height of 1
        a, b, strides, dilation = a[:, None], b[None], (1, *strides), (1, *dilation)
    out = _depthwise_2d(a, b, strides, padding, dilation)
    return tf.cast(out[:, 0] if rank == 1 else out, x.dtype)


def _depthwise_2d(x, kernel, strides, padding, dilation):
    """`tf.nn.depthwise_conv2d`, one kernel for every channel (a grouped conv would split into
    one conv per channel). It takes equal strides, and strides or dilation, not both: otherwise
    pad, convolve densely, then subsample."""
    if strides[0] == strides[1] and (max(strides) == 1 or max(dilation) == 1):
        return tf.nn.depthwise_conv2d(
            x, kernel, (1, *strides, 1), padding.upper(), dilations=dilation
        )
    pads = conv_math.conv_padding(x.shape[1:-1], kernel.shape[:-2], strides, padding, dilation)
    x = tf.pad(x, [(0, 0), *pads, (0, 0)])
    dense = tf.nn.depthwise_conv2d(x, kernel, (1, 1, 1, 1), "VALID", dilations=dilation)
    return dense[:, :: strides[0], :: strides[1]]


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    x, data_format, rank = _spatial_input(inputs, data_format)
    x, kernel = promote(x, kernel)
    _check_kernel(kernel, rank)
    return _from_channels_last(_depthwise(x, kernel, strides, padding, dilation_rate), data_format)


def separable_conv(
    inputs,
    depthwise_kernel,
    pointwise_kernel,
    strides=1,
    padding="valid",
    data_format=None,
    dilation_rate=1,
):
    x, data_format, rank = _spatial_input(inputs, data_format)
    x, depthwise_kernel, pointwise_kernel = promote(x, depthwise_kernel, pointwise_kernel)
    _check_kernel(depthwise_kernel, rank, "depthwise_kernel")
    _check_kernel(pointwise_kernel, rank, "pointwise_kernel")
    x = _depthwise(x, depthwise_kernel, strides, padding, dilation_rate)
    return _from_channels_last(_conv(x, pointwise_kernel, 1, "valid", 1), data_format)


def _output_padding(output_padding, rank):
    if output_padding is None:
        return (None,) * rank
    values = (output_padding,) * rank if isinstance(output_padding, int) else tuple(output_padding)
    if len(values) != rank or not all(isinstance(v, int) and v >= 0 for v in values):
        raise ValueError(
            f"output_padding must be a non-negative int or {rank} of them, received {output_padding!r}."
        )
    return values


def conv_transpose(
    inputs,
    kernel,
    strides=1,
    padding="valid",
    output_padding=None,
    data_format=None,
    dilation_rate=1,
):
    x, data_format, rank = _spatial_input(inputs, data_format)
    x, kernel = promote(x, kernel)
    _check_kernel(kernel, rank)
    if kernel.shape[-1] != x.shape[-1]:
        raise ValueError(
            f"conv_transpose kernels are (spatial..., out, in): the kernel's input channels "
            f"({kernel.shape[-1]}) must equal the inputs' channels ({x.shape[-1]})."
        )
    strides = conv_math.normalize_tuple(strides, rank, "strides")
    dilation = conv_math.normalize_tuple(dilation_rate, rank, "dilation_rate")
    output_padding = _output_padding(output_padding, rank)
    dtype = x.dtype
    sizes = kernel.shape[:-2]
    x, kernel = _float_operands(x, kernel)
    for axis, rate in enumerate(dilation):  # TensorFlow's CPU kernel lacks dilation: dilate it.
        kernel = _dilate(kernel, axis, rate)
    # The 'valid' transposed conv is the full one; Keras's padding then pads or crops it.
    full = [(n - 1) * s + k for n, s, k in zip(x.shape[1:-1], strides, kernel.shape[:-2])]
    out_shape = tf.concat([tf.shape(x)[:1], full, [kernel.shape[-2]]], 0)
    y = tf.nn.conv_transpose(x, kernel, out_shape, strides, padding="VALID")
    amounts = []
    for k, s, p, d in zip(sizes, strides, output_padding, dilation):
        before, after = conv_math.conv_transpose_padding(k, s, padding, p, d)
        span = conv_math.effective_kernel_size(k, d)
        amounts.append((before - (span - 1), after - (span - 1)))
    return _from_channels_last(tf.cast(_pad_or_crop(y, amounts), dtype), data_format)


# -- pooling -------------------------------------------------------------------------------------
def _pool_args(rank, pool_size, strides, padding):
    pool_size, strides = conv_math.pool_window(rank, pool_size, strides)
    return pool_size, strides, conv_math.standardize_padding(padding).upper()


def _pool_3d(x, pool, window, strides, padding):
    """A 3-D pool as a 2-D pool over (H, W) then a 1-D pool over D (pooling is separable)."""
    n, d, h, w, c = (tf.shape(x)[i] if s is None else s for i, s in enumerate(x.shape))
    y = pool(tf.reshape(x, [-1, h, w, c]), window[1:], strides[1:], padding)
    hw = y.shape[1:3]
    y = tf.reshape(y, [n, d, hw[0] * hw[1], c])
    y = pool(y, (window[0], 1), (strides[0], 1), padding)
    return tf.reshape(y, [n, y.shape[1], hw[0], hw[1], c])


def _pool(inputs, pool_size, strides, padding, data_format, pool):
    x, data_format, rank = _spatial_input(inputs, data_format)
    window, strides, padding = _pool_args(rank, pool_size, strides, padding)
    if rank == 3:
        y = _pool_3d(x, pool, window, strides, padding)
    else:
        y = pool(x, window, strides, padding)
    return _from_channels_last(y, data_format)


#: dtypes TensorFlow's max reductions lack -> a dtype holding their values that has them
_MAX_CASTS = {tf.bool: tf.uint8, tf.uint32: tf.int64, tf.uint64: tf.float64}


def _max_in_supported_dtype(reduce):
    """`reduce` (a max over windows) run on a dtype that TensorFlow supports, cast back."""

    def run(x, *args):
        compute = _MAX_CASTS.get(x.dtype, x.dtype)
        return tf.cast(reduce(tf.cast(x, compute), *args), x.dtype)

    return run


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    pool = _max_in_supported_dtype(tf.nn.max_pool)
    return _pool(inputs, pool_size, strides, padding, data_format, pool)


def _average(x, window, strides, padding):
    """Average pooling (padding excluded from the count); integers average as floatx."""
    return tf.nn.avg_pool(to_float(x), window, strides, padding)


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    return _pool(inputs, pool_size, strides, padding, data_format, _average)


def _adaptive(inputs, output_size, data_format, reduce_axis):
    x, data_format, rank = _spatial_input(inputs, data_format)
    sizes = conv_math.normalize_tuple(output_size, rank, "output_size")
    for axis, size in enumerate(sizes, start=1):
        x = reduce_axis(x, axis, conv_math.adaptive_pool_windows(x.shape[axis], size))
    return _from_channels_last(x, data_format)


def _adaptive_max_axis(x, axis, windows):
    """Max over each (start, stop) window of `axis`; short windows repeat their last element."""
    width = max(stop - start for start, stop in windows)
    index = np.array([[min(start + j, stop - 1) for j in range(width)] for start, stop in windows])
    return tf.reduce_max(tf.gather(x, index, axis=axis), axis=axis + 1)


def _adaptive_mean_axis(x, axis, windows):
    """Mean over each (start, stop) window of `axis`, as a matrix product."""
    weights = np.zeros((len(windows), x.shape[axis]))
    for i, (start, stop) in enumerate(windows):
        weights[i, start:stop] = 1.0 / (stop - start)
    y = tf.tensordot(x, tf.constant(weights, x.dtype), [[axis], [1]])
    return tf.transpose(y, [*range(axis), x.shape.rank - 1, *range(axis, x.shape.rank - 1)])


def adaptive_max_pool(inputs, output_size, data_format=None):
    return _adaptive(inputs, output_size, data_format, _max_in_supported_dtype(_adaptive_max_axis))


def adaptive_average_pool(inputs, output_size, data_format=None):
    return _adaptive(to_float(inputs), output_size, data_format, _adaptive_mean_axis)


# -- sliding blocks ------------------------------------------------------------------------------
def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    x = convert_to_tensor(x)
    padding, index = fold_math.unfold_plan(tuple(x.shape), kernel_size, dilation, padding, stride)
    padded = [x.shape[2 + i] + 2 * padding[i] for i in range(2)]
    x = tf.pad(x, [(0, 0), (0, 0), *((p, p) for p in padding)])
    n, c = tf.shape(x)[0], x.shape[1]
    blocks = tf.gather(tf.reshape(x, [n, c, padded[0] * padded[1]]), index, axis=2)
    return tf.reshape(blocks, [n, c * index.shape[0], index.shape[1]])


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    x = convert_to_tensor(x)
    _, padding, padded, index, c = fold_math.fold_plan(
        tuple(x.shape), output_size, kernel_size, dilation, padding, stride
    )
    blocks, positions = index.shape
    n = tf.shape(x)[0]
    values = tf.transpose(tf.reshape(x, [n, c, blocks * positions]), [2, 0, 1])
    summable = tf.cast(values, tf.int32) if x.dtype == tf.bool else values  # bool sums are "or"
    summed = tf.math.unsorted_segment_sum(summable, index.reshape(-1), padded[0] * padded[1])
    out = tf.cast(
        tf.reshape(tf.transpose(summed, [1, 2, 0]), [n, c, padded[0], padded[1]]), x.dtype
    )
    return out[:, :, padding[0] : padded[0] - padding[0], padding[1] : padded[1] - padding[1]]
