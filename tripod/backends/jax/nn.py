"""The jax backend: nn ops (activations, normalization, losses, convolutions, pooling, attention).

Convolutions and pools run through `lax.conv_general_dilated` / `lax.reduce_window` with the
explicit paddings of `tripod.backends.common.conv`; CTC lives in `ctc.py`.
"""

import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tripod.backends import config, dtypes
from tripod.backends.common import attention, dtype_rules, errors, indices, losses
from tripod.backends.common import conv as conv_math
from tripod.backends.common import fold as fold_math
from tripod.backends.jax import ctc, symbolic
from tripod.backends.jax.core import convert_to_tensor
from tripod.backends.jax.helpers import (
    HALF,
    as_dtype,
    axis_arg,
    float_map,
    np_dtype,
    result_dtype,
    wide_dtype,
    work_dtype,
)

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
    "sigmoid",
    "silu",
    "softmax",
    "softplus",
    "sparse_categorical_crossentropy",
    "unfold",
]

# -- activations ------------------------------------------------------------------------------


def relu(x):
    x = convert_to_tensor(x)
    return jnp.maximum(x, jnp.zeros((), x.dtype))


def sigmoid(x):
    return float_map(jax.nn.sigmoid, x)


def silu(x):
    return float_map(jax.nn.silu, x)


def softplus(x):
    return float_map(jax.nn.softplus, x)


def log_sigmoid(x):
    return float_map(jax.nn.log_sigmoid, x)


def elu(x, alpha=1.0):
    return float_map(lambda v: jnp.where(v > 0, v, alpha * jnp.expm1(jnp.minimum(v, 0))), x)


def leaky_relu(x, negative_slope=0.2):
    return float_map(lambda v: jnp.where(v >= 0, v, negative_slope * v), x)


def gelu(x, approximate=True):
    return float_map(lambda v: jax.nn.gelu(v, approximate=approximate), x)


def softmax(x, axis=-1):
    return float_map(lambda v: jax.nn.softmax(v, axis=axis_arg(axis)), x)


def log_softmax(x, axis=-1):
    return float_map(lambda v: jax.nn.log_softmax(v, axis=axis_arg(axis)), x)


# -- normalization ----------------------------------------------------------------------------


def moments(x, axes, keepdims=False, synchronized=False):
    dtype = result_dtype(x, floating=True)
    x = as_dtype(x, work_dtype(dtype))
    axes = axis_arg(axes)
    mean = jnp.mean(x, axis=axes, keepdims=True)
    variance = jnp.mean(jnp.square(x - mean), axis=axes, keepdims=keepdims)
    if not keepdims:
        mean = jnp.squeeze(mean, axis=axes)
    return mean.astype(np_dtype(dtype)), variance.astype(np_dtype(dtype))


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=0.001):
    dtype = result_dtype(
        *(v for v in (x, mean, variance, offset, scale) if v is not None), floating=True
    )
    work = work_dtype(dtype)
    x = as_dtype(x, work)
    axis = errors.check_axis("batch_normalization", axis, x.ndim)
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]

    def param(v):
        return as_dtype(v, work).reshape(shape)

    inv = lax.rsqrt(param(variance) + epsilon)
    if scale is not None:
        inv = inv * param(scale)
    result = (x - param(mean)) * inv
    if offset is not None:
        result = result + param(offset)
    return result.astype(np_dtype(dtype))


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    rms_scaling = kwargs.pop("rms_scaling", False)
    if kwargs:
        raise TypeError(f"unexpected arguments {sorted(kwargs)}.")
    epsilon = config.epsilon() if epsilon is None else epsilon
    dtype = result_dtype(x, floating=True)
    x = as_dtype(x, wide_dtype(dtype))
    axes = axis_arg(axis)
    inv = lax.rsqrt(jnp.var(x, axis=axes, keepdims=True) + epsilon)
    result = x * inv if rms_scaling else (x - jnp.mean(x, axis=axes, keepdims=True)) * inv
    if gamma is not None:
        result = result * convert_to_tensor(gamma)
    if beta is not None and not rms_scaling:
        result = result + convert_to_tensor(beta)
    return result.astype(np_dtype(dtype))


# -- encodings and losses ---------------------------------------------------------------------


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    errors.check_dense("jax", sparse)
    x = convert_to_tensor(x, dtype=indices.class_indices_dtype("one_hot", x))
    axis = errors.check_axis("one_hot", axis, x.ndim + 1)
    return jax.nn.one_hot(x, int(num_classes), dtype=np_dtype(dtype), axis=axis)


def _loss_operands(target, output):
    """Target and output in the compute dtype, and the result dtype."""
    dtype = result_dtype(target, output, floating=True)
    work = work_dtype(dtype)
    target, output = as_dtype(target, work), as_dtype(output, work)
    losses.check_same_shape(target, output)
    return target, output, dtype


def binary_crossentropy(target, output, from_logits=False):
    target, output, dtype = _loss_operands(target, output)
    if from_logits:
        loss = jax.nn.softplus(output) - output * target
    else:
        eps = config.epsilon()
        output = jnp.clip(output, eps, 1.0 - eps)
        loss = -(target * jnp.log(output) + (1.0 - target) * jnp.log(1.0 - output))
    return loss.astype(np_dtype(dtype))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target, output, dtype = _loss_operands(target, output)
    if output.ndim < 1:
        raise ValueError("output must have at least one dimension.")
    if from_logits:
        # sum(t) * logsumexp(x) - sum(t * x): log_softmax's algebra, without its full-width
        # output (on a TPU v5e, log_softmax of 32x512x8192 logits took 50 ms, this 3 ms)
        normalizer = jax.nn.logsumexp(output, axis=axis)
        loss = normalizer * jnp.sum(target, axis=axis) - jnp.sum(target * output, axis=axis)
        return loss.astype(np_dtype(dtype))
    output = output / jnp.sum(output, axis=axis, keepdims=True)
    eps = config.epsilon()
    log_probs = jnp.log(jnp.clip(output, eps, 1.0 - eps))
    return (-jnp.sum(target * log_probs, axis=axis)).astype(np_dtype(dtype))


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    target, axis = losses.sparse_target(jnp, target, output, axis)
    if not from_logits:
        dense = one_hot(target.astype(jnp.int32), output.shape[axis], axis=axis, dtype=output.dtype)
        return categorical_crossentropy(dense, output, axis=axis)
    # logsumexp(x) - x[label], as the one-hot form computes it (a label outside the classes
    # gives 0), without materialising a one-hot or a log_softmax of the logits
    dtype = result_dtype(output, floating=True)
    logits = as_dtype(output, work_dtype(dtype))
    labels = jnp.expand_dims(target.astype(jnp.int32), axis)
    picked = jnp.take_along_axis(logits, labels, axis=axis, mode="clip")
    loss = jnp.squeeze(jax.nn.logsumexp(logits, axis=axis, keepdims=True) - picked, axis)
    inside = (target >= 0) & (target < output.shape[axis])
    return jnp.where(inside, loss, 0.0).astype(np_dtype(dtype))


# -- convolution ------------------------------------------------------------------------------

_SPATIAL = {1: "W", 2: "HW", 3: "DHW"}


def _dimension_numbers(rank, data_format):
    """lax's (input, kernel, output) layout strings for a rank-`rank` conv in `data_format`."""
    spatial = _SPATIAL[rank]
    layout = f"NC{spatial}" if data_format == "channels_first" else f"N{spatial}C"
    return layout, f"{spatial}IO", layout


def _conv_setup(inputs, kernel, strides, data_format, dilation_rate, name):
    """Inputs and kernel as the convolution takes them, the result dtype, and the normalized
    arguments. Half floats stay half, as a TPU's or GPU's kernels take them (XLA accumulates
    their products in float32 and rounds the sum once); integers are convolved as floats."""
    dtype = result_dtype(inputs, kernel)
    work = dtype if dtype in HALF else wide_dtype(dtype)
    inputs, kernel = as_dtype(inputs, work), as_dtype(kernel, work)
    data_format, strides, dilation = conv_math.conv_args(
        inputs.ndim, kernel.ndim, strides, data_format, dilation_rate, name
    )
    return dtype, inputs, kernel, strides, dilation, data_format


def _grouped_conv(x, kernel, strides, pads, dilation, data_format, input_dilation=None):
    """Convolve `x` with `kernel` (spatial..., in/groups, out) using explicit pads; the input
    spread out by `input_dilation` first (a transposed convolution)."""
    groups = conv_math.check_conv_channels(
        conv_math.channels(x.shape, data_format), kernel.shape[-2]
    )
    if kernel.shape[-1] % groups:
        raise ValueError(
            f"the kernel's {kernel.shape[-1]} output channels do not split into {groups} groups."
        )
    return lax.conv_general_dilated(
        x,
        kernel,
        window_strides=strides,
        padding=[tuple(p) for p in pads],
        lhs_dilation=input_dilation,
        rhs_dilation=dilation,
        dimension_numbers=_dimension_numbers(len(strides), data_format),
        feature_group_count=groups,
    )  # no float32 `preferred_element_type`: the same sums, 20% slower on a TPU v5e convnet


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    dtype, x, kernel, strides, dilation, data_format = _conv_setup(
        inputs, kernel, strides, data_format, dilation_rate, "conv"
    )
    spatial = conv_math.spatial_shape(x.shape, data_format)
    pads = conv_math.conv_padding(spatial, kernel.shape[:-2], strides, padding, dilation)
    return _grouped_conv(x, kernel, strides, pads, dilation, data_format).astype(np_dtype(dtype))


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    dtype, x, kernel, strides, dilation, data_format = _conv_setup(
        inputs, kernel, strides, data_format, dilation_rate, "depthwise_conv"
    )
    in_channels = conv_math.channels(x.shape, data_format)
    if kernel.shape[-2] != in_channels:
        raise ValueError(
            f"depthwise_conv: the kernel has {kernel.shape[-2]} input channels, "
            f"the input {in_channels}."
        )
    grouped = kernel.reshape(kernel.shape[:-2] + (1, kernel.shape[-2] * kernel.shape[-1]))
    spatial = conv_math.spatial_shape(x.shape, data_format)
    pads = conv_math.conv_padding(spatial, kernel.shape[:-2], strides, padding, dilation)
    out = _grouped_conv(x, grouped, strides, pads, dilation, data_format)
    return out.astype(np_dtype(dtype))


def _spatial_config(values, data_format, fill):
    """Per-dim settings of a batched, channelled tensor: `values` on spatial dims, else `fill`."""
    values = list(values)
    if data_format == "channels_first":
        return [fill, fill, *values]
    return [fill, *values, fill]


def conv_transpose(
    inputs,
    kernel,
    strides=1,
    padding="valid",
    output_padding=None,
    data_format=None,
    dilation_rate=1,
):
    dtype, x, kernel, strides, dilation, data_format = _conv_setup(
        inputs, kernel, strides, data_format, dilation_rate, "conv_transpose"
    )
    rank = len(strides)
    pads = conv_math.conv_transpose_paddings(
        kernel.shape[:rank], strides, padding, output_padding, dilation
    )
    # The input spread out by the strides (lhs dilation) and padded (or cropped, for negative
    # amounts) inside the convolution: one op, which ONNX exporters map to ConvTranspose.
    flipped = jnp.swapaxes(jnp.flip(kernel, axis=tuple(range(rank))), -1, -2)
    out = _grouped_conv(x, flipped, (1,) * rank, pads, dilation, data_format, strides)
    return out.astype(np_dtype(dtype))


# -- pooling ----------------------------------------------------------------------------------


def _pool_setup(inputs, pool_size, strides, padding, data_format):
    """The input, normalized data format, and reduce_window's per-dim windows, strides, pads."""
    inputs = convert_to_tensor(inputs)
    rank = conv_math.spatial_rank(inputs.ndim)
    data_format = conv_math.standardize_data_format(data_format)
    pool_size, strides = conv_math.pool_window(rank, pool_size, strides)
    spatial = conv_math.spatial_shape(inputs.shape, data_format)
    pads = conv_math.conv_padding(spatial, pool_size, strides, padding, (1,) * rank)
    window = (
        _spatial_config(pool_size, data_format, 1),
        _spatial_config(strides, data_format, 1),
        _spatial_config(pads, data_format, (0, 0)),
    )
    return inputs, data_format, window


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    x, _, window = _pool_setup(inputs, pool_size, strides, padding, data_format)
    # A NumPy init value keeps reduce_window differentiable under jit.
    lowest = np.array(dtype_rules.lowest(x.dtype), x.dtype)
    if not symbolic.has_symbolic_dims(x.shape):
        return lax.reduce_window(x, lowest, lax.max, *window)
    # Exporting (a shape-polymorphic trace): max is separable, so pool one axis at a time over
    # a 3-d view (before, axis, after), which an ONNX runtime can run (they pool at most 3
    # dims); the same result, but slower than one window where it is not needed.
    for axis, (size, stride, pad) in enumerate(zip(*window)):
        if (size, stride, tuple(pad)) != (1, 1, (0, 0)):
            shape = x.shape
            view = x.reshape(math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1 :]))
            view = lax.reduce_window(
                view, lowest, lax.max, (1, size, 1), (1, stride, 1), ((0, 0), tuple(pad), (0, 0))
            )
            x = view.reshape(shape[:axis] + (view.shape[1],) + shape[axis + 1 :])
    return x


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    x, data_format, window = _pool_setup(inputs, pool_size, strides, padding, data_format)
    dtype = result_dtype(x, floating=True)
    x = as_dtype(x, wide_dtype(dtype))
    zero = np.zeros((), x.dtype)
    total = lax.reduce_window(x, zero, lax.add, *window)
    # 'same' padding is excluded from the average: divide by the number of real elements.
    ones_shape = _spatial_config(conv_math.spatial_shape(x.shape, data_format), data_format, 1)
    counts = lax.reduce_window(jnp.ones(ones_shape, x.dtype), zero, lax.add, *window)
    return (total / counts).astype(np_dtype(dtype))


def _adaptive_pool(inputs, output_size, data_format, reduce, dtype):
    """Pool each spatial dim in turn over the adaptive windows of `common.conv`."""
    x = convert_to_tensor(inputs)
    data_format, output_size = conv_math.adaptive_args(x.ndim, output_size, data_format)
    if dtypes.is_float(dtype):
        x = as_dtype(x, work_dtype(dtype))
    first = 2 if data_format == "channels_first" else 1
    for axis, size in enumerate(output_size, start=first):
        windows = conv_math.adaptive_pool_windows(x.shape[axis], size)
        parts = [reduce(lax.slice_in_dim(x, lo, hi, axis=axis), axis) for lo, hi in windows]
        x = jnp.stack(parts, axis=axis)
    return x.astype(np_dtype(dtype))


def adaptive_average_pool(inputs, output_size, data_format=None):
    dtype = result_dtype(inputs, floating=True)
    return _adaptive_pool(inputs, output_size, data_format, lambda v, a: jnp.mean(v, axis=a), dtype)


def adaptive_max_pool(inputs, output_size, data_format=None):
    dtype = result_dtype(inputs)
    return _adaptive_pool(inputs, output_size, data_format, lambda v, a: jnp.max(v, axis=a), dtype)


# -- sliding blocks (torch's unfold / fold, channels_first; index table from common.fold) ----


def _add_at(out, table, values):
    """`out` with `values` added at its flat pixel indices `table` (for `fold_math.fold`)."""
    return out.at[:, :, table].add(values)


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    return fold_math.unfold(jnp, convert_to_tensor(x), kernel_size, dilation, padding, stride)


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    x = convert_to_tensor(x)
    return fold_math.fold(jnp, _add_at, x, output_size, kernel_size, dilation, padding, stride)


# -- attention --------------------------------------------------------------------------------


def dot_product_attention(
    query,
    key,
    value,
    bias=None,
    mask=None,
    scale=None,
    is_causal=False,
    flash_attention=None,
    attn_logits_soft_cap=None,
):
    dtype = result_dtype(query, key, value)
    compute = dtype if dtypes.is_float(dtype) else wide_dtype(dtype)
    q, k, v = (as_dtype(t, compute) for t in (query, key, value))
    bias = None if bias is None else convert_to_tensor(bias)
    mask = None if mask is None else convert_to_tensor(mask)
    if attn_logits_soft_cap is not None:  # jax's fused attention has no soft cap
        q, k, v = (t.astype(np_dtype(wide_dtype(compute))) for t in (q, k, v))
        out = attention.attend(
            jnp, jax.nn.softmax, q, k, v, bias, mask, scale, is_causal, attn_logits_soft_cap
        )
    else:
        out = _fused_attention(q, k, v, bias, mask, scale, is_causal, flash_attention)
    return out.astype(np_dtype(dtype))


def _rank4(x):
    """A bias or mask broadcastable to (B, N, T, S), given leading axes up to rank 4."""
    return None if x is None else jnp.reshape(x, (1,) * (4 - x.ndim) + x.shape)


def _fused_attention(q, k, v, bias, mask, scale, is_causal, flash_attention):
    """jax's fused attention: logits and softmax in float32 at least, the products in the
    operands' dtype; cuDNN's flash kernel where `attention_implementation` picks it."""
    q, k, v, unbatched = attention.batched(q, k, v)
    mask = None if mask is None else _rank4(mask.astype(bool))
    args = (q, k, v, _rank4(bias), mask)
    kwargs = {"scale": attention.default_scale(q, scale), "is_causal": is_causal}
    implementation = attention_implementation(jax.default_backend(), q.dtype, flash_attention)
    try:
        out = jax.nn.dot_product_attention(*args, **kwargs, implementation=implementation)
    except (ValueError, NotImplementedError, RuntimeError):
        if implementation is None:
            raise
        out = jax.nn.dot_product_attention(*args, **kwargs)  # cuDNN refused these inputs
    return out[0] if unbatched else out


def attention_implementation(platform, dtype, flash_attention):
    """The `implementation` jax.nn.dot_product_attention takes: "cudnn" (its flash kernel) for
    half-precision inputs on a GPU unless flash attention is refused, else None (XLA's, which
    is also the faster one on a TPU)."""
    if flash_attention is None:
        flash_attention = config.is_flash_attention_enabled()
    half = np.dtype(dtype) in (np.dtype(jnp.bfloat16), np.dtype(jnp.float16))
    return "cudnn" if platform == "gpu" and half and flash_attention is not False else None


# -- CTC --------------------------------------------------------------------------------------


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    return ctc.loss(target, output, target_length, output_length, mask_index)


def ctc_decode(
    inputs,
    sequence_lengths,
    strategy="greedy",
    beam_width=100,
    top_paths=1,
    merge_repeated=True,
    mask_index=0,
):
    return ctc.decode(
        inputs, sequence_lengths, strategy, beam_width, top_paths, merge_repeated, mask_index
    )
