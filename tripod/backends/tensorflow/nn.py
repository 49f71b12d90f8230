"""The tensorflow backend: neural-network ops (activations, convolution, pooling, normalization,
losses, attention).

Spatial ops run channels_last (TensorFlow's CPU kernels lack NCHW): channels_first inputs are
transposed in and out. Padding, output-length and window math comes from `common/conv.py`.
"""

import math

import numpy as np
import tensorflow as tf

from tripod.backends import config, dtypes
from tripod.backends.common import conv as conv_math
from tripod.backends.common import fold as fold_math
from tripod.backends.common.indices import class_indices_dtype
from tripod.backends.tensorflow.tensors import cast, convert_to_tensor, promote, tf_dtype, to_float

__all__ = [
    "adaptive_average_pool",
    "adaptive_max_pool",
    "average_pool",
    "batch_normalization",
    "binary_crossentropy",
    "categorical_crossentropy",
    "conv",
    "conv_transpose",
    "ctc_decode",
    "ctc_loss",
    "depthwise_conv",
    "dot_product_attention",
    "elu",
    "fold",
    "gelu",
    "layer_normalization",
    "leaky_relu",
    "log_sigmoid",
    "log_softmax",
    "max_pool",
    "moments",
    "one_hot",
    "relu",
    "separable_conv",
    "sigmoid",
    "silu",
    "softmax",
    "softplus",
    "sparse_categorical_crossentropy",
    "unfold",
]


# -- activations ---------------------------------------------------------------------------------
def relu(x):
    x = convert_to_tensor(x)
    return x if x.dtype == tf.bool else tf.nn.relu(x)  # max(x, False) is x


def sigmoid(x):
    return tf.sigmoid(to_float(x))


def softplus(x):
    return tf.nn.softplus(to_float(x))


def silu(x):
    return tf.nn.silu(to_float(x))


def gelu(x, approximate=True):
    return tf.nn.gelu(to_float(x), approximate=approximate)


def elu(x, alpha=1.0):
    x = to_float(x)
    # tf.nn.elu's negative side is expm1(x) (alpha 1); ONNX converters know it, not Expm1
    return tf.where(x > 0, x, alpha * tf.nn.elu(tf.minimum(x, 0)))


def leaky_relu(x, negative_slope=0.2):
    return tf.nn.leaky_relu(to_float(x), alpha=negative_slope)


def log_sigmoid(x):
    return tf.math.log_sigmoid(to_float(x))


def _shifted(x, axis):
    """`x` minus its (gradient-free) max over `axis`: exp of it cannot overflow."""
    return x - tf.stop_gradient(tf.reduce_max(x, axis=axis, keepdims=True))


def softmax(x, axis=-1):
    x = to_float(x)
    if isinstance(axis, int):
        return tf.nn.softmax(x, axis=axis)
    exp = tf.exp(_shifted(x, axis))
    return exp / tf.reduce_sum(exp, axis=axis, keepdims=True)


def log_softmax(x, axis=-1):
    x = to_float(x)
    if isinstance(axis, int):
        return tf.nn.log_softmax(x, axis=axis)
    shifted = _shifted(x, axis)
    return shifted - tf.math.log(tf.reduce_sum(tf.exp(shifted), axis=axis, keepdims=True))


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
def _wide(dtype):
    """The float dtype computing a `dtype` result in: float64 for 64-bit types (and uint32)."""
    return tf.float64 if dtype in (tf.float64, tf.int64, tf.uint32, tf.uint64) else tf.float32


def _float_operands(*xs):
    """Same-dtype tensors as floats TensorFlow's conv kernels take (non-floats widened)."""
    dtype = xs[0].dtype
    return xs if dtype.is_floating else tuple(tf.cast(x, _wide(dtype)) for x in xs)


_CHANNELS_LAST = {3: "NWC", 4: "NHWC", 5: "NDHWC"}


def _plain_conv(x, kernel, strides, padding, dilation):
    """Channels_last convolution with the kernel's input channels dividing x's (groups)."""
    groups = conv_math.check_conv_channels(x.shape[-1], kernel.shape[-2])
    if kernel.shape[-1] % groups:
        raise ValueError(
            f"the kernel's {kernel.shape[-1]} output channels do not split into {groups} groups."
        )
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
    grouped = tf.reshape(kernel, [*kernel.shape[:-2], 1, kernel.shape[-2] * kernel.shape[-1]])
    return _conv(x, grouped, strides, padding, dilation_rate)


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    x, data_format, rank = _spatial_input(inputs, data_format)
    x, kernel = promote(x, kernel)
    _check_kernel(kernel, rank)
    return _from_channels_last(_depthwise(x, kernel, strides, padding, dilation_rate), data_format)


def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1, padding='valid', data_format=None, dilation_rate=1):  # fmt: skip
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


def conv_transpose(inputs, kernel, strides=1, padding='valid', output_padding=None, data_format=None, dilation_rate=1):  # fmt: skip
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


# -- normalization -------------------------------------------------------------------------------
def _broadcast_along(v, axis, ndim):
    """A 1-D `v` reshaped to broadcast against rank-`ndim` tensors along `axis`."""
    if v.shape.rank != 1 or ndim <= 1:
        return v
    shape = [1] * ndim
    shape[axis] = -1
    return tf.reshape(v, shape)


def _work(x):
    """Float `x` in the dtype to compute with: half floats widen to float32."""
    return tf.cast(x, tf.float32) if x.dtype in (tf.float16, tf.bfloat16) else x


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=0.001):
    given = [v for v in (x, mean, variance, offset, scale) if v is not None]
    dtype = dtypes.result_type(*(convert_to_tensor(v).dtype.name for v in given), float)
    x = _work(convert_to_tensor(x, dtype))
    ndim = x.shape.rank
    axis = axis % ndim

    def along(v):
        return _broadcast_along(cast(v, x.dtype), axis, ndim)

    inv = tf.math.rsqrt(along(variance) + epsilon)
    if scale is not None:
        inv = inv * along(scale)
    y = (x - along(mean)) * inv
    return cast(y if offset is None else y + along(offset), dtype)


def moments(x, axes, keepdims=False, synchronized=False):
    x = to_float(x)
    axes = [axes] if isinstance(axes, int) else list(axes)
    mean, variance = tf.nn.moments(_work(x), axes, keepdims=keepdims)
    return tf.cast(mean, x.dtype), tf.cast(tf.maximum(variance, 0), x.dtype)


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    rms_scaling = kwargs.pop("rms_scaling", False)
    if kwargs:
        raise TypeError(f"unexpected arguments {sorted(kwargs)}.")
    x = to_float(x)
    ndim = x.shape.rank
    axes = [a % ndim for a in ([axis] if isinstance(axis, int) else axis)]
    epsilon = config.epsilon() if epsilon is None else epsilon
    work = _work(x)
    mean, variance = tf.nn.moments(work, axes, keepdims=True)
    y = (work if rms_scaling else work - mean) * tf.math.rsqrt(variance + epsilon)
    param_shape = [x.shape[a] if a in axes else 1 for a in range(ndim)]
    if gamma is not None:
        y = y * tf.reshape(cast(gamma, work.dtype), param_shape)
    if beta is not None and not rms_scaling:
        y = y + tf.reshape(cast(beta, work.dtype), param_shape)
    return tf.cast(y, x.dtype)


# -- encodings -----------------------------------------------------------------------------------
def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    x = convert_to_tensor(x, dtype=class_indices_dtype("one_hot", x))
    if x.dtype not in (tf.int32, tf.int64):
        x = tf.cast(x, tf.int64)
    dtype = tf_dtype(dtype)
    on, off = tf.ones((), dtype), tf.zeros((), dtype)
    y = tf.one_hot(x, num_classes, on_value=on, off_value=off, axis=axis, dtype=dtype)
    return tf.sparse.from_dense(y) if sparse else y


# -- losses --------------------------------------------------------------------------------------
def _loss_operands(target, output):
    """Target and output as tensors of their shared float dtype, checked to have equal shapes."""
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    dtype = dtypes.result_type(target.dtype.name, output.dtype.name, float)
    if not target.shape.is_compatible_with(output.shape):
        raise ValueError(
            f"target and output must have the same shape, received target.shape={target.shape}, "
            f"output.shape={output.shape}."
        )
    return cast(target, dtype), cast(output, dtype)


def _clipped(output):
    epsilon = config.epsilon()
    return tf.clip_by_value(output, epsilon, 1.0 - epsilon)


def binary_crossentropy(target, output, from_logits=False):
    target, output = _loss_operands(target, output)
    if from_logits:
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    output = _clipped(output)
    return -(target * tf.math.log(output) + (1.0 - target) * tf.math.log(1.0 - output))


def _log_probabilities(output, from_logits, axis):
    """Log class probabilities from logits, or from (renormalised, clipped) probabilities."""
    if from_logits:
        return tf.nn.log_softmax(output, axis=axis)
    output = output / tf.reduce_sum(output, axis=axis, keepdims=True)
    return tf.math.log(_clipped(output))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target, output = _loss_operands(target, output)
    return -tf.reduce_sum(target * _log_probabilities(output, from_logits, axis), axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target, output = convert_to_tensor(target), to_float(output)
    ndim = output.shape.rank
    axis = axis % ndim
    if target.shape.rank == ndim and target.shape[axis] == 1:
        target = tf.squeeze(target, axis)
    expected = output.shape[:axis] + output.shape[axis + 1 :]
    if not target.shape.is_compatible_with(expected):
        raise ValueError(
            f"target must have the shape of output without its class axis, received "
            f"target.shape={target.shape}, output.shape={output.shape}."
        )
    target = tf.one_hot(
        tf.cast(target, tf.int64), output.shape[axis], axis=axis, dtype=output.dtype
    )
    return -tf.reduce_sum(target * _log_probabilities(output, from_logits, axis), axis=axis)


# -- CTC -----------------------------------------------------------------------------------------
#: a finite log(0): unreachable CTC states keep finite values, so their gradients are not NaN
_CTC_LOG_ZERO = -1e30


def _shift_states(alpha, by):
    """CTC state log-probabilities moved `by` states later (earlier states unreachable)."""
    return tf.pad(alpha[:, :-by], [(0, 0), (by, 0)], constant_values=_CTC_LOG_ZERO)


def _ctc_extended(target, blank):
    """(batch, 2L + 1) labels with a blank before, between and after them, and where a
    state may be reached from two states back (a label differing from the one before it)."""
    batch, labels = tf.shape(target)[0], tf.shape(target)[1]
    pairs = tf.stack([tf.fill(tf.shape(target), blank), target], axis=2)
    extended = tf.concat([tf.reshape(pairs, [batch, 2 * labels]), tf.fill([batch, 1], blank)], 1)
    before = tf.pad(extended[:, :-2], [(0, 0), (2, 0)], constant_values=blank)
    return extended, (extended != blank) & (extended != before)


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    target = tf.cast(convert_to_tensor(target), tf.int32)
    output = to_float(output)
    dtype = output.dtype
    output = output if dtype == tf.float64 else tf.cast(output, tf.float32)
    if target.shape.rank != 2 or output.shape.rank != 3:
        raise ValueError(
            f"ctc_loss needs target (batch, labels) and output (batch, steps, classes), "
            f"received {target.shape} and {output.shape}."
        )
    extended, can_skip = _ctc_extended(target, mask_index)
    emissions = tf.gather(tf.nn.log_softmax(output, axis=-1), extended, axis=2, batch_dims=1)
    output_length = tf.cast(tf.reshape(convert_to_tensor(output_length), [-1]), tf.int32)
    log_zero = tf.constant(_CTC_LOG_ZERO, output.dtype)
    states = tf.range(tf.shape(extended)[1])
    alpha = tf.where(states < 2, emissions[:, 0], log_zero)

    def step(alpha, inputs):
        emission, t = inputs
        jump = tf.where(can_skip, _shift_states(alpha, 2), log_zero)
        paths = tf.stack([alpha, _shift_states(alpha, 1), jump])
        new = tf.reduce_logsumexp(paths, axis=0) + emission
        return tf.where((t < output_length)[:, None], new, alpha)

    steps = (tf.transpose(emissions[:, 1:], [1, 0, 2]), tf.range(1, tf.shape(emissions)[1]))
    alpha = tf.foldl(step, steps, initializer=alpha)
    end = 2 * tf.cast(tf.reshape(convert_to_tensor(target_length), [-1]), tf.int32)
    last = tf.gather(alpha, end, batch_dims=1)
    before = tf.where(end > 0, tf.gather(alpha, tf.maximum(end - 1, 0), batch_dims=1), log_zero)
    loss = -tf.reduce_logsumexp(tf.stack([last, before]), axis=0)
    impossible = loss > -0.5 * _CTC_LOG_ZERO  # no alignment reaches the end: probability 0
    return tf.cast(tf.where(impossible, tf.constant(math.inf, loss.dtype), loss), dtype)


def _valid_steps(lengths, steps):
    """(batch, steps) bool: which time steps lie within each sequence's length."""
    return tf.range(steps)[None, :] < tf.cast(lengths, tf.int32)[:, None]


def _ctc_greedy(inputs, lengths, merge_repeated, mask_index):
    """Best path per step; repeats merged (optionally), blanks dropped, then left-packed."""
    steps = tf.shape(inputs)[1]
    valid = _valid_steps(lengths, steps)
    best = tf.argmax(inputs, axis=-1, output_type=tf.int32)
    scores = -tf.reduce_sum(tf.where(valid, tf.reduce_max(inputs, axis=-1), 0), axis=1)
    keep = valid & (best != mask_index)
    if merge_repeated:
        previous = tf.pad(best[:, :-1], [(0, 0), (1, 0)], constant_values=-1)
        keep = keep & (best != previous)
    return _left_pack(best, keep)[None], scores[:, None]


def _left_pack(labels, keep):
    """(batch, steps) labels with the kept ones moved to the front in order, the rest -1."""
    position = tf.cumsum(tf.cast(keep, tf.int32), axis=1, exclusive=True)
    steps = tf.shape(labels)[1]
    target = tf.where(keep, position, steps)  # dropped entries go to an overflow slot
    rows = tf.broadcast_to(tf.range(tf.shape(labels)[0])[:, None], tf.shape(labels))
    index = tf.stack([rows, target], axis=-1)
    packed = tf.scatter_nd(index, labels + 1, tf.stack([tf.shape(labels)[0], steps + 1]))
    return packed[:, :-1] - 1


def _logaddexp(a, b):
    return tf.reduce_logsumexp(tf.stack([a, b]), axis=0)


#: (modulus, base) of the two 31-bit polynomial hashes that key CTC beam prefixes
_PREFIX_HASHES = ((2147483647, 911382323), (2147483629, 972663749))


def _extended_key(key, label):
    """The key of a prefix extended by `label`, from the prefix's key.

    A key packs two 31-bit polynomial hashes of the labels into an int64 (the empty prefix
    is 0): distinct prefixes share a key with probability about 2**-62.
    """
    label = tf.cast(label, tf.int64) + 1
    (m1, b1), (m2, b2) = _PREFIX_HASHES
    high = (key // 2**31 * b1 + label) % m1
    low = (key % 2**31 * b2 + label) % m2
    return high * 2**31 + low


def _beam_candidates(state, log_probs, labels, blank):
    """(batch, W * (1 + labels)) log p of each candidate ending in a blank and in a label.

    Candidate c of beam w sits at w * (1 + labels) + c: first the beam kept (followed by a
    blank, or by a repeat of its last label), then the beam extended by each label. An
    extension equal to a kept beam merges into it (and leaves the candidates).
    """
    prefixes, lengths, keys, parent_keys, p_blank, p_label = state
    total = _logaddexp(p_blank, p_label)
    valid = total > -math.inf
    last = tf.where(lengths > 0, tf.gather(prefixes, tf.maximum(lengths - 1, 0), batch_dims=2), -1)
    label_column = last - tf.cast(last > blank, tf.int32)  # last's index in `labels`, -1: none
    repeat = labels[None, None, :] == last[..., None]
    label_probs = tf.gather(log_probs, labels, axis=1)[:, None, :]
    extend = tf.where(repeat, p_blank[..., None], total[..., None]) + label_probs
    # merges[b, w1, w2]: beam w2 is beam w1 extended by w2's last label.
    merges = (keys[:, :, None] == parent_keys[:, None, :]) & valid[:, :, None] & valid[:, None, :]
    merged = tf.gather(extend, tf.maximum(label_column, 0), axis=2, batch_dims=1)
    merged = tf.reduce_logsumexp(tf.where(merges, merged, -math.inf), axis=1)
    keep_blank = tf.where(valid, total + log_probs[:, blank : blank + 1], -math.inf)
    repeated = tf.gather(log_probs, tf.maximum(last, 0), batch_dims=1)
    keep_label = tf.where(valid & (lengths > 0), p_label + repeated, -math.inf)
    keep_label = _logaddexp(keep_label, merged)
    columns = tf.one_hot(label_column, tf.shape(labels)[0], dtype=extend.dtype)
    absorbed = tf.matmul(tf.cast(merges, extend.dtype), columns) > 0
    extend = tf.where(absorbed | ~valid[..., None], -math.inf, extend)
    batch = tf.shape(prefixes)[0]
    no_blank = tf.fill(tf.shape(extend), -math.inf)
    cand_blank = tf.reshape(tf.concat([keep_blank[..., None], no_blank], -1), [batch, -1])
    cand_label = tf.reshape(tf.concat([keep_label[..., None], extend], -1), [batch, -1])
    return cand_blank, cand_label


def _beam_select(state, cand_blank, cand_label, labels):
    """The W most probable candidates (laid out as in `_beam_candidates`) as the new beams."""
    prefixes, lengths, keys, parent_keys, _, _ = state
    _, chosen = tf.math.top_k(_logaddexp(cand_blank, cand_label), k=tf.shape(prefixes)[1])
    width = 1 + tf.shape(labels)[0]
    parent, extended = chosen // width, chosen % width > 0
    appended = tf.gather(labels, tf.maximum(chosen % width - 1, 0))
    old_lengths = tf.gather(lengths, parent, batch_dims=1)
    old_keys = tf.gather(keys, parent, batch_dims=1)
    at_end = (tf.range(tf.shape(prefixes)[2]) == old_lengths[..., None]) & extended[..., None]
    return (
        tf.where(at_end, appended[..., None], tf.gather(prefixes, parent, batch_dims=1)),
        old_lengths + tf.cast(extended, tf.int32),
        tf.where(extended, _extended_key(old_keys, appended), old_keys),
        tf.where(extended, old_keys, tf.gather(parent_keys, parent, batch_dims=1)),
        tf.gather(cand_blank, chosen, batch_dims=1),
        tf.gather(cand_label, chosen, batch_dims=1),
    )


def _beam_step(state, inputs, labels, blank):
    """One step of CTC prefix beam search over W beams (sequences already ended keep theirs).

    A beam is its prefix (labels padded with -1, its length, the keys of it and of it minus
    its last label) with the log probabilities of its paths ending in a blank and in a label.
    """
    log_probs, active = inputs
    new = _beam_select(state, *_beam_candidates(state, log_probs, labels, blank), labels)
    return tuple(
        tf.where(tf.reshape(active, [-1] + [1] * (n.shape.rank - 1)), n, o)
        for n, o in zip(new, state)
    )


def _ctc_beam(inputs, lengths, beam_width, top_paths, blank):
    """CTC prefix beam search keeping `beam_width` prefixes per step; the best `top_paths`."""
    log_probs = tf.nn.log_softmax(inputs, axis=-1)
    batch, steps, classes = tf.shape(inputs)[0], tf.shape(inputs)[1], inputs.shape[-1]
    labels = tf.constant([c for c in range(classes) if c != blank], tf.int32)
    beams = [batch, beam_width]
    state = (
        tf.fill([batch, beam_width, steps], -1),
        tf.zeros(beams, tf.int32),
        tf.zeros(beams, tf.int64),
        tf.fill(beams, tf.constant(-1, tf.int64)),  # the empty prefix has no parent
        tf.one_hot(tf.zeros([batch], tf.int32), beam_width, on_value=0.0, off_value=-math.inf),
        tf.fill(beams, -math.inf),
    )
    timeline = (tf.transpose(log_probs, [1, 0, 2]), tf.transpose(_valid_steps(lengths, steps)))
    final = tf.foldl(lambda s, x: _beam_step(s, x, labels, blank), timeline, initializer=state)
    prefixes, scores = final[0], _logaddexp(final[4], final[5])
    paths = tf.where((scores > -math.inf)[..., None], prefixes, -1)
    missing = max(top_paths - beam_width, 0)  # more paths asked for than beams kept
    paths = tf.pad(paths[:, :top_paths], [(0, 0), (0, missing), (0, 0)], constant_values=-1)
    scores = tf.pad(scores[:, :top_paths], [(0, 0), (0, missing)], constant_values=-math.inf)
    return tf.transpose(paths, [1, 0, 2]), scores


def ctc_decode(inputs, sequence_lengths, strategy='greedy', beam_width=100, top_paths=1, merge_repeated=True, mask_index=0):  # fmt: skip
    inputs = tf.cast(to_float(inputs), tf.float32)
    lengths = convert_to_tensor(sequence_lengths)
    if strategy == "greedy":
        decoded, scores = _ctc_greedy(inputs, lengths, merge_repeated, mask_index)
    elif strategy == "beam_search":
        decoded, scores = _ctc_beam(inputs, lengths, beam_width, top_paths, mask_index)
    else:
        raise ValueError(f"strategy must be 'greedy' or 'beam_search', received {strategy!r}.")
    return decoded, scores


# -- attention -----------------------------------------------------------------------------------
def _causal_mask(queries, keys):
    """(queries, keys) bool: query i may attend to keys 0..i."""
    return tf.linalg.band_part(tf.ones((queries, keys), tf.bool), -1, 0)


def _attention_operands(query, key, value):
    """Batched query, key and value of one float dtype, key/value heads repeated to match."""
    if not (query.shape.rank == key.shape.rank == value.shape.rank == 4):
        raise ValueError(
            "query, key and value must be 4-D (batch, length, heads, head_dim) or 3-D "
            f"(unbatched), received {query.shape}, {key.shape}, {value.shape}."
        )
    heads, kv_heads = query.shape[2], key.shape[2]
    if kv_heads != value.shape[2] or heads % kv_heads:
        raise ValueError(
            f"key/value heads ({kv_heads}, {value.shape[2]}) must be equal and divide the "
            f"query heads ({heads})."
        )
    if heads != kv_heads:  # grouped-query attention: each key/value head serves a group
        key = tf.repeat(key, heads // kv_heads, axis=2)
        value = tf.repeat(value, heads // kv_heads, axis=2)
    return query, key, value


def dot_product_attention(query, key, value, bias=None, mask=None, scale=None, is_causal=False, flash_attention=None, attn_logits_soft_cap=None):  # fmt: skip
    query, key, value = promote(query, key, value)
    if query.shape.rank == 3:  # unbatched
        args = (bias, mask, scale, is_causal, flash_attention, attn_logits_soft_cap)
        return dot_product_attention(query[None], key[None], value[None], *args)[0]
    query, key, value = _attention_operands(query, key, value)
    dtype, compute = query.dtype, _wide(query.dtype)
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    logits = tf.einsum("btnh,bsnh->bnts", tf.cast(query, compute), tf.cast(key, compute)) * scale
    if attn_logits_soft_cap is not None:
        logits = attn_logits_soft_cap * tf.tanh(logits / attn_logits_soft_cap)
    if bias is not None:
        logits = logits + cast(bias, compute)
    allowed = None if mask is None else tf.cast(convert_to_tensor(mask), tf.bool)
    if is_causal:
        causal = _causal_mask(tf.shape(logits)[2], tf.shape(logits)[3])
        allowed = causal if allowed is None else allowed & causal
    if allowed is not None:
        logits = tf.where(allowed, logits, 0.7 * compute.min)
    weights = tf.nn.softmax(logits, axis=-1)
    return tf.cast(tf.einsum("bnts,bsnh->btnh", weights, tf.cast(value, compute)), dtype)


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
