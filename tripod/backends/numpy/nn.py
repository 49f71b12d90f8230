"""The numpy backend: nn ops (activations, convolutions, pooling, losses, attention, CTC).

Convolutions and pools are computed on channels_last arrays through strided window views;
`tripod.backends.common.conv` holds the padding and output-shape rules every backend shares.
"""

import functools
import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from tripod.backends import config, dtypes
from tripod.backends.common import attention, dtype_rules, errors, indices, losses
from tripod.backends.common import conv as conv_math
from tripod.backends.common import fold as fold_math
from tripod.backends.numpy import rules
from tripod.backends.numpy.core import convert_to_tensor
from tripod.backends.numpy.math import erf

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

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


# -- activations ---------------------------------------------------------------------------------
def relu(x):
    x = convert_to_tensor(x)
    return rules.finish(np.maximum(x, 0), x.dtype)


def sigmoid(x):
    return rules.float_map(_sigmoid, x)


def _sigmoid(x):
    """A logistic sigmoid that never overflows."""
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _softplus(x):
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


def silu(x):
    return rules.float_map(lambda v: v * _sigmoid(v), x)


def softplus(x):
    return rules.float_map(_softplus, x)


def log_sigmoid(x):
    return rules.float_map(lambda v: -_softplus(-v), x)


def elu(x, alpha=1.0):
    return rules.float_map(lambda v: np.where(v > 0, v, alpha * np.expm1(np.minimum(v, 0))), x)


def leaky_relu(x, negative_slope=0.2):
    return rules.float_map(lambda v: np.where(v >= 0, v, negative_slope * v), x)


def gelu(x, approximate=True):
    if approximate:
        return rules.float_map(
            lambda v: 0.5 * v * (1.0 + np.tanh(_SQRT_2_OVER_PI * (v + 0.044715 * v**3))), x
        )
    return rules.float_map(lambda v: 0.5 * v * (1.0 + erf(v / math.sqrt(2.0))), x)


def _softmax(x, axis):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def _log_softmax(x, axis):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def _axes(axis):
    return tuple(axis) if isinstance(axis, (list, tuple)) else axis


def softmax(x, axis=-1):
    return rules.float_map(lambda v: _softmax(v, _axes(axis)), x)


def log_softmax(x, axis=-1):
    return rules.float_map(lambda v: _log_softmax(v, _axes(axis)), x)


# -- normalization -------------------------------------------------------------------------------
def moments(x, axes, keepdims=False, synchronized=False):
    dtype = rules.result(x, floating=True)
    x = rules.as_dtype(x, rules.work(dtype))
    axes = _axes(axes)
    mean = np.mean(x, axis=axes, keepdims=True)
    variance = np.mean(np.square(x - mean), axis=axes, keepdims=keepdims)
    if not keepdims:
        mean = np.squeeze(mean, axis=axes)
    return rules.finish(mean, dtype), rules.finish(variance, dtype)


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=0.001):
    operands = [v for v in (x, mean, variance, offset, scale) if v is not None]
    dtype = rules.result(*operands, floating=True)
    x = rules.as_dtype(x, rules.work(dtype))
    axis = errors.check_axis("batch_normalization", axis, x.ndim)
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]

    def param(v):
        return rules.as_dtype(v, rules.work(dtype)).reshape(shape)

    inv = 1.0 / np.sqrt(param(variance) + epsilon)
    if scale is not None:
        inv = inv * param(scale)
    result = (x - param(mean)) * inv
    if offset is not None:
        result = result + param(offset)
    return rules.finish(result, dtype)


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    rms_scaling = kwargs.pop("rms_scaling", False)
    if kwargs:
        raise TypeError(f"unexpected arguments {sorted(kwargs)}.")
    epsilon = config.epsilon() if epsilon is None else epsilon
    dtype = rules.result(x, floating=True)
    x = rules.as_dtype(x, rules.wide(dtype))
    axes = _axes(axis)
    mean = np.mean(x, axis=axes, keepdims=True)
    variance = np.var(x, axis=axes, keepdims=True)
    inv = 1.0 / np.sqrt(variance + epsilon)
    if rms_scaling:
        result = x * inv
        if gamma is not None:
            result = result * convert_to_tensor(gamma)
        return rules.finish(result, dtype)
    result = (x - mean) * inv
    if gamma is not None:
        result = result * convert_to_tensor(gamma)
    if beta is not None:
        result = result + convert_to_tensor(beta)
    return rules.finish(result, dtype)


# -- encodings and losses ------------------------------------------------------------------------
def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    errors.check_dense("numpy", sparse)
    x = convert_to_tensor(x, dtype=indices.class_indices_dtype("one_hot", x))
    classes = np.arange(int(num_classes))
    encoded = (x[..., None] == classes).astype(dtypes.to_numpy(dtypes.standardize_dtype(dtype)))
    axis = errors.check_axis("one_hot", axis, x.ndim + 1)
    return np.moveaxis(encoded, -1, axis)


def binary_crossentropy(target, output, from_logits=False):
    dtype = rules.result(target, output, floating=True)
    work = rules.work(dtype)
    target, output = rules.as_dtype(target, work), rules.as_dtype(output, work)
    losses.check_same_shape(target, output)
    if from_logits:
        # -t log(sigmoid(z)) - (1 - t) log(1 - sigmoid(z)), with no cancellation when saturated
        return rules.finish(target * _softplus(-output) + (1.0 - target) * _softplus(output), dtype)
    eps = config.epsilon()
    output = np.clip(output, eps, 1.0 - eps)
    return rules.finish(-(target * np.log(output) + (1.0 - target) * np.log(1.0 - output)), dtype)


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    dtype = rules.result(target, output, floating=True)
    work = rules.work(dtype)
    target, output = rules.as_dtype(target, work), rules.as_dtype(output, work)
    losses.check_same_shape(target, output)
    if output.ndim < 1:
        raise ValueError("output must have at least one dimension.")
    if from_logits:
        log_probs = _log_softmax(output, axis)
    else:
        output = output / np.sum(output, axis=axis, keepdims=True)
        eps = config.epsilon()
        log_probs = np.log(np.clip(output, eps, 1.0 - eps))
    return rules.finish(-np.sum(target * log_probs, axis=axis), dtype)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    target, axis = losses.sparse_target(np, target, output, axis)
    dense = one_hot(target.astype(np.int64), output.shape[axis], axis=axis, dtype=output.dtype)
    return categorical_crossentropy(dense, output, from_logits=from_logits, axis=axis)


# -- convolution ---------------------------------------------------------------------------------
def _to_channels_last(x, data_format):
    return np.moveaxis(x, 1, -1) if data_format == "channels_first" else x


def _from_channels_last(x, data_format):
    return np.moveaxis(x, -1, 1) if data_format == "channels_first" else x


def _windows(x, span, strides, dilation):
    """Strided, dilated window view of channels_last `x`: (batch, out..., channels, k...)."""
    rank = len(span)
    effective = [conv_math.effective_kernel_size(k, d) for k, d in zip(span, dilation)]
    view = sliding_window_view(x, effective, axis=tuple(range(1, rank + 1)))
    steps = (slice(None),) + tuple(slice(None, None, s) for s in strides) + (slice(None),)
    return view[steps + tuple(slice(None, None, d) for d in dilation)]


def _pad_spatial(x, pads, value=0):
    """Pad (or, for negative amounts, crop) the spatial dims of a channels_last array."""
    crop = tuple(
        slice(max(-lo, 0), x.shape[i + 1] - max(-hi, 0)) for i, (lo, hi) in enumerate(pads)
    )
    x = x[(slice(None),) + crop]
    widths = [(0, 0)] + [(max(lo, 0), max(hi, 0)) for lo, hi in pads] + [(0, 0)]
    return np.pad(x, widths, constant_values=value)


def _grouped_conv(x, kernel, strides, pads, dilation):
    """Convolve channels_last `x` with `kernel` (spatial..., in/groups, out), explicit pads."""
    rank = kernel.ndim - 2
    span = kernel.shape[:rank]
    groups = conv_math.check_conv_channels(x.shape[-1], kernel.shape[-2])
    out_channels = kernel.shape[-1]
    if out_channels % groups:
        raise ValueError(
            f"the kernel's {out_channels} output channels do not split into {groups} groups."
        )
    windows = _windows(_pad_spatial(x, pads), span, strides, dilation)
    batch_out = windows.shape[: rank + 1]
    windows = windows.reshape(batch_out + (groups, kernel.shape[-2]) + tuple(span))
    k = kernel.reshape(tuple(span) + (kernel.shape[-2], groups, out_channels // groups))
    spatial = "".join(chr(ord("p") + i) for i in range(rank))
    spec = f"...gc{spatial},{spatial}cgo->...go"
    out = np.einsum(spec, windows, k, optimize=True)
    return out.reshape(batch_out + (out_channels,))


def _conv_setup(inputs, kernel, strides, data_format, dilation_rate, name):
    """Common argument handling: arrays in the compute dtype, channels_last input, tuples."""
    dtype = rules.result(inputs, kernel)
    work = rules.wide(dtype)
    inputs, kernel = rules.as_dtype(inputs, work), rules.as_dtype(kernel, work)
    data_format, strides, dilation = conv_math.conv_args(
        inputs.ndim, kernel.ndim, strides, data_format, dilation_rate, name
    )
    return dtype, _to_channels_last(inputs, data_format), kernel, strides, dilation, data_format


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    dtype, x, kernel, strides, dilation, data_format = _conv_setup(
        inputs, kernel, strides, data_format, dilation_rate, "conv"
    )
    pads = conv_math.conv_padding(x.shape[1:-1], kernel.shape[:-2], strides, padding, dilation)
    out = _grouped_conv(x, kernel, strides, pads, dilation)
    return rules.finish(_from_channels_last(out, data_format), dtype)


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    dtype, x, kernel, strides, dilation, data_format = _conv_setup(
        inputs, kernel, strides, data_format, dilation_rate, "depthwise_conv"
    )
    if kernel.shape[-2] != x.shape[-1]:
        raise ValueError(
            f"depthwise_conv: the kernel has {kernel.shape[-2]} input channels, "
            f"the input {x.shape[-1]}."
        )
    grouped = kernel.reshape(kernel.shape[:-2] + (1, kernel.shape[-2] * kernel.shape[-1]))
    pads = conv_math.conv_padding(x.shape[1:-1], kernel.shape[:-2], strides, padding, dilation)
    out = _grouped_conv(x, grouped, strides, pads, dilation)
    return rules.finish(_from_channels_last(out, data_format), dtype)


def _insert_zeros(x, strides):
    """Channels_last `x` with `stride - 1` zeros between neighbours along each spatial dim."""
    spatial = tuple((n - 1) * s + 1 for n, s in zip(x.shape[1:-1], strides))
    out = np.zeros((x.shape[0],) + spatial + (x.shape[-1],), x.dtype)
    out[(slice(None),) + tuple(slice(None, None, s) for s in strides)] = x
    return out


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
    flipped = np.flip(kernel, axis=tuple(range(rank))).swapaxes(-1, -2)
    out = _grouped_conv(_insert_zeros(x, strides), flipped, (1,) * rank, pads, dilation)
    return rules.finish(_from_channels_last(out, data_format), dtype)


# -- pooling -------------------------------------------------------------------------------------
def _pool_setup(inputs, pool_size, strides, data_format):
    inputs = convert_to_tensor(inputs)
    rank = conv_math.spatial_rank(inputs.ndim)
    data_format = conv_math.standardize_data_format(data_format)
    pool_size, strides = conv_math.pool_window(rank, pool_size, strides)
    return _to_channels_last(inputs, data_format), pool_size, strides, data_format


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    x, pool_size, strides, data_format = _pool_setup(inputs, pool_size, strides, data_format)
    pads = conv_math.conv_padding(x.shape[1:-1], pool_size, strides, padding, (1,) * len(pool_size))
    windows = _windows(
        _pad_spatial(x, pads, dtype_rules.lowest(x.dtype)),
        pool_size,
        strides,
        (1,) * len(pool_size),
    )
    pooled = windows.max(axis=tuple(range(-len(pool_size), 0)))
    return rules.finish(_from_channels_last(pooled, data_format), x.dtype)


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    x, pool_size, strides, data_format = _pool_setup(inputs, pool_size, strides, data_format)
    dtype = rules.result(x, floating=True)
    rank = len(pool_size)
    pads = conv_math.conv_padding(x.shape[1:-1], pool_size, strides, padding, (1,) * rank)
    window_axes = tuple(range(-rank, 0))

    def pooled_sum(values):
        return _windows(_pad_spatial(values, pads), pool_size, strides, (1,) * rank).sum(
            axis=window_axes
        )

    # 'same' padding is excluded from the average: divide by the number of real elements.
    counts = pooled_sum(np.ones((1,) + x.shape[1:-1] + (1,)))
    pooled = pooled_sum(x.astype(rules.wide(dtype))) / counts
    return rules.finish(_from_channels_last(pooled, data_format), dtype)


def _adaptive_pool(inputs, output_size, data_format, reduce, dtype):
    """Pool each spatial dim in turn over the adaptive windows of `common.conv`."""
    x = convert_to_tensor(inputs)
    data_format, output_size = conv_math.adaptive_args(x.ndim, output_size, data_format)
    x = _to_channels_last(x, data_format).astype(
        rules.work(dtype) if dtypes.is_float(dtype) else x.dtype
    )
    for axis, size in enumerate(output_size, start=1):
        windows = conv_math.adaptive_pool_windows(x.shape[axis], size)
        parts = [reduce(np.take(x, range(lo, hi), axis=axis), axis) for lo, hi in windows]
        x = np.stack(parts, axis=axis)
    return rules.finish(_from_channels_last(x, data_format), dtype)


def adaptive_average_pool(inputs, output_size, data_format=None):
    dtype = rules.result(inputs, floating=True)
    return _adaptive_pool(inputs, output_size, data_format, lambda v, a: v.mean(axis=a), dtype)


def adaptive_max_pool(inputs, output_size, data_format=None):
    return _adaptive_pool(
        inputs, output_size, data_format, lambda v, a: v.max(axis=a), rules.name(inputs)
    )


# -- sliding blocks (torch's unfold / fold, channels_first; index table from common.fold) -------


def _add_at(out, table, values):
    """`out` with `values` added at its flat pixel indices `table` (for `fold_math.fold`)."""
    np.add.at(out, (slice(None), slice(None), table), values)
    return out


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    return fold_math.unfold(np, convert_to_tensor(x), kernel_size, dilation, padding, stride)


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    x = convert_to_tensor(x)
    return fold_math.fold(np, _add_at, x, output_size, kernel_size, dilation, padding, stride)


# -- attention -----------------------------------------------------------------------------------
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
    dtype = rules.result(query, key, value)
    q, k, v = (rules.as_dtype(t, rules.wide(dtype)) for t in (query, key, value))
    bias, mask = (None if t is None else convert_to_tensor(t) for t in (bias, mask))
    softmax = functools.partial(_softmax, axis=-1)
    out = attention.attend(np, softmax, q, k, v, bias, mask, scale, is_causal, attn_logits_soft_cap)
    return rules.finish(out, dtype)


# -- CTC -----------------------------------------------------------------------------------------
_LOG_ZERO = -np.inf


def _ctc_sequence_loss(log_probs, labels, blank):
    """-log p(labels | log_probs) for one sequence: the CTC forward (alpha) recursion."""
    extended = np.full(2 * len(labels) + 1, blank)
    extended[1::2] = labels
    # A label may be reached from two states back unless it is a blank or repeats that label.
    skip = np.zeros(len(extended), dtype=bool)
    skip[2:] = (extended[2:] != blank) & (extended[2:] != extended[:-2])
    alpha = np.full(len(extended), _LOG_ZERO)
    alpha[:2] = log_probs[0, extended[:2]]
    for t in range(1, len(log_probs)):
        stay = alpha
        step = np.concatenate([[_LOG_ZERO], alpha[:-1]])
        jump = np.where(
            skip, np.concatenate([[_LOG_ZERO, _LOG_ZERO], alpha])[: len(alpha)], _LOG_ZERO
        )
        alpha = np.logaddexp(np.logaddexp(stay, step), jump) + log_probs[t, extended]
    return -np.logaddexp(alpha[-1], alpha[-2] if len(alpha) > 1 else _LOG_ZERO)


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    target = convert_to_tensor(target)
    dtype = rules.result(output, floating=True)
    output = rules.as_dtype(output, "float64")
    if target.ndim != 2 or output.ndim != 3 or target.shape[0] != output.shape[0]:
        raise ValueError(
            "ctc_loss needs target (B, L) and output (B, T, C), "
            f"received {target.shape} and {output.shape}."
        )
    log_probs = _log_softmax(output, -1)
    target_length = np.asarray(convert_to_tensor(target_length)).reshape(-1)
    output_length = np.asarray(convert_to_tensor(output_length)).reshape(-1)
    losses = [
        _ctc_sequence_loss(
            log_probs[b, : output_length[b]], target[b, : target_length[b]], mask_index
        )
        for b in range(target.shape[0])
    ]
    return rules.finish(losses, dtype)


def _pad_paths(paths, length):
    """Label sequences as a (len(paths), length) int32 array padded with -1."""
    out = np.full((len(paths), length), -1, dtype=np.int32)
    for i, path in enumerate(paths):
        out[i, : len(path)] = path
    return out


def _greedy_path(best, merge_repeated, blank):
    if merge_repeated:
        best = [c for i, c in enumerate(best) if i == 0 or c != best[i - 1]]
    return [int(c) for c in best if c != blank]


def _add_path(scores, prefix, blank_p, label_p):
    """Accumulate log probabilities (ending in blank, ending in a label) of `prefix`."""
    old_blank, old_label = scores.get(prefix, (_LOG_ZERO, _LOG_ZERO))
    scores[prefix] = (np.logaddexp(old_blank, blank_p), np.logaddexp(old_label, label_p))


def _beam_step(beams, step, blank):
    """Every one-step extension of `beams` by the frame log probabilities `step`."""
    scores = {}
    for prefix, (p_blank, p_label) in beams.items():
        total = np.logaddexp(p_blank, p_label)
        _add_path(scores, prefix, total + step[blank], _LOG_ZERO)
        for c, p in enumerate(step):
            if c == blank:
                continue
            if prefix and prefix[-1] == c:
                # a repeat merges into the prefix unless a blank separates the two labels
                _add_path(scores, prefix, _LOG_ZERO, p_label + p)
                _add_path(scores, prefix + (c,), _LOG_ZERO, p_blank + p)
            else:
                _add_path(scores, prefix + (c,), _LOG_ZERO, total + p)
    return scores


def _beam_search(log_probs, beam_width, blank):
    """CTC prefix beam search: [(prefix, log probability)] best first, at most `beam_width`."""
    beams = {(): (0.0, _LOG_ZERO)}  # prefix -> (log p ending in blank, log p ending in a label)
    for step in log_probs:
        ranked = sorted(
            _beam_step(beams, step, blank).items(), key=lambda item: -np.logaddexp(*item[1])
        )
        beams = dict(ranked[:beam_width])
    return [(prefix, float(np.logaddexp(*p))) for prefix, p in beams.items()]


def ctc_decode(
    inputs,
    sequence_lengths,
    strategy="greedy",
    beam_width=100,
    top_paths=1,
    merge_repeated=True,
    mask_index=0,
):
    inputs = rules.as_dtype(inputs, "float64")
    if inputs.ndim != 3:
        raise ValueError(f"ctc_decode needs inputs of shape (B, T, C), received {inputs.shape}.")
    batch, length, _ = inputs.shape
    lengths = np.asarray(convert_to_tensor(sequence_lengths)).reshape(-1)
    if strategy == "greedy":
        paths, scores = [], []
        for b in range(batch):
            steps = inputs[b, : lengths[b]]
            paths.append(_greedy_path(np.argmax(steps, axis=-1), merge_repeated, mask_index))
            scores.append([-np.sum(np.max(steps, axis=-1))])
        return _pad_paths(paths, length)[None], np.asarray(scores, dtype=np.float32)
    if strategy != "beam_search":
        raise ValueError(f"strategy must be 'greedy' or 'beam_search', received {strategy!r}.")
    log_probs = _log_softmax(inputs, -1)
    decoded = np.full((top_paths, batch, length), -1, dtype=np.int32)
    scores = np.full((batch, top_paths), -np.inf, dtype=np.float32)
    for b in range(batch):
        best = _beam_search(log_probs[b, : lengths[b]], beam_width, mask_index)[:top_paths]
        decoded[: len(best), b] = _pad_paths([p for p, _ in best], length)
        scores[b, : len(best)] = [s for _, s in best]
    return decoded, scores
