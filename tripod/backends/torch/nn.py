"""The torch backend: nn ops (activations, convolution, pooling, normalization, losses, attention).

Tensors arrive in Keras layouts: channels_last unless `data_format` says otherwise, conv kernels
shaped (spatial..., in, out), conv_transpose kernels (spatial..., out, in). They are permuted as
views into torch's (N, C, spatial...) and (out, in, spatial...) layouts for the native kernels and
back; 'same' padding follows TensorFlow's rule (extra padding after), padded explicitly when it is
asymmetric.
"""

import math

import torch
import torch.nn.functional as F

from tripod.backends import config
from tripod.backends.common import conv as conv_math
from tripod.backends.common.errors import check_axis
from tripod.backends.common.indices import class_indices_dtype
from tripod.backends.torch.helpers import as_floatx, stats_dtype
from tripod.backends.torch.tensors import (
    convert_to_tensor,
    dtype_name,
    to_torch_dtype,
    torch_result_type,
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

_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_CONV_TRANSPOSE = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
_MAX_POOL = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}
_AVG_POOL = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}
_ADAPTIVE_MAX = {1: F.adaptive_max_pool1d, 2: F.adaptive_max_pool2d, 3: F.adaptive_max_pool3d}
_ADAPTIVE_AVG = {1: F.adaptive_avg_pool1d, 2: F.adaptive_avg_pool2d, 3: F.adaptive_avg_pool3d}


# ---------------------------------------------------------------- dtypes and layouts


# Float dtypes that promote to themselves: operands all of one of them need no promotion.
_SELF_PROMOTING = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


def _promoted(*xs):
    """Tensors (None stays None) in their shared result dtype, made floatx if not floating."""
    xs = [None if x is None else convert_to_tensor(x) for x in xs]
    present = [x for x in xs if x is not None]
    first = present[0].dtype
    if first in _SELF_PROMOTING and all(x.dtype == first for x in present):
        return xs  # the hot path (a layer's own float tensors): nothing to look up or cast
    dtype = torch_result_type(*(dtype_name(x) for x in present))
    if not dtype.is_floating_point:
        dtype = to_torch_dtype(config.floatx())
    return [None if x is None else x.to(dtype) for x in xs]


def _exact_float(dtype):
    """The float dtype torch's kernels compute `dtype` values in: itself, float64 for ints."""
    return dtype if dtype.is_floating_point else torch.float64


def _conv_operands(*xs):
    """Tensors in the dtype torch convolves them in, and their result dtype."""
    xs = [convert_to_tensor(x) for x in xs]
    dtype = torch_result_type(*(dtype_name(x) for x in xs))
    return [x.to(_exact_float(dtype)) for x in xs], dtype


def _layout(x, data_format, name="inputs"):
    """The standardized data format and the number of spatial dims of batched tensor `x`."""
    return conv_math.standardize_data_format(data_format), conv_math.spatial_rank(x.ndim, name)


def _channels_first(x, data_format):
    """A (N, C, spatial...) view of `x`."""
    return x.movedim(-1, 1) if data_format == "channels_last" else x


def _restore(y, data_format, dtype):
    """A (N, C, spatial...) result back in `data_format`, cast to `dtype`."""
    y = y.movedim(1, -1) if data_format == "channels_last" else y
    return y.to(dtype)


def _axes(axis, ndim, name):
    """`axis` (None, an int or ints) as a sorted tuple of distinct non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    axes = [axis] if isinstance(axis, int) else list(axis)
    axes = sorted(check_axis(name, a, ndim) for a in axes)
    if len(set(axes)) != len(axes):
        raise ValueError(f"ops.{name}: repeated axis in {axis!r}.")
    return tuple(axes)


# ---------------------------------------------------------------- activations


def relu(x):
    return torch.relu(convert_to_tensor(x))


def sigmoid(x):
    return torch.sigmoid(as_floatx(x))


def _single_axis(axis):
    """The one axis of `axis` (an int or a one-element sequence), else None: one native kernel."""
    if isinstance(axis, int):
        return axis
    return axis[0] if isinstance(axis, (tuple, list)) and len(axis) == 1 else None


def _log_softmax(x, axis, name):
    x = as_floatx(x)
    single = _single_axis(axis)
    if single is not None:
        return torch.log_softmax(x, check_axis(name, single, x.ndim))
    axes = _axes(axis, x.ndim, name)
    return x - torch.logsumexp(x, axes, keepdim=True)


def softmax(x, axis=-1):
    x = as_floatx(x)
    single = _single_axis(axis)
    if single is not None:
        return torch.softmax(x, check_axis("softmax", single, x.ndim))
    return torch.exp(_log_softmax(x, axis, "softmax"))


def log_softmax(x, axis=-1):
    return _log_softmax(x, axis, "log_softmax")


def softplus(x):
    return F.softplus(as_floatx(x))


def silu(x):
    return F.silu(as_floatx(x))


def gelu(x, approximate=True):
    return F.gelu(as_floatx(x), approximate="tanh" if approximate else "none")


def elu(x, alpha=1.0):
    return F.elu(as_floatx(x), alpha)


def leaky_relu(x, negative_slope=0.2):
    return F.leaky_relu(as_floatx(x), negative_slope)


def log_sigmoid(x):
    return F.logsigmoid(as_floatx(x))


# ---------------------------------------------------------------- convolution


def _window_args(rank, strides, dilation_rate):
    return (
        conv_math.normalize_tuple(strides, rank, "strides"),
        conv_math.normalize_tuple(dilation_rate, rank, "dilation_rate"),
    )


def _check_kernel(kernel, rank, name="kernel"):
    if kernel.ndim != rank + 2:
        raise ValueError(
            f"{name} must have rank {rank + 2} (spatial..., in, out) for inputs with {rank} "
            f"spatial dims, got shape {tuple(kernel.shape)}."
        )


def _torch_weight(kernel):
    """A Keras (spatial..., a, b) kernel as torch's (b, a, spatial...) weight (a view)."""
    rank = kernel.ndim - 2
    return kernel.permute(rank + 1, rank, *range(rank))


def _pad(x, pads, value=0.0):
    """Channels-first `x` padded by per-spatial-dim (before, after) amounts."""
    flat = [amount for pair in reversed(pads) for amount in pair]
    return F.pad(x, flat, value=value)


def _torch_padding(x, pads, value=0.0):
    """(x, padding): torch's symmetric `padding` argument where it suffices, else `x` padded."""
    if all(before == after for before, after in pads):
        return x, tuple(before for before, _ in pads)
    return _pad(x, pads, value), 0


def _conv_nd(x, weight, strides, padding, dilation, groups=1, bias=None):
    """A channels-first convolution with Keras 'valid'/'same' padding (plus `bias`, if given)."""
    pads = conv_math.conv_padding(x.shape[2:], weight.shape[2:], strides, padding, dilation)
    x, torch_padding = _torch_padding(x, pads)
    return _CONV[x.ndim - 2](x, weight, bias, strides, torch_padding, dilation, groups)


def _conv(operands, strides, padding, data_format, dilation_rate):
    """`ops.conv` of (inputs, kernel[, bias]): torch adds a bias inside its convolution kernel."""
    (x, kernel, *bias), dtype = _conv_operands(*operands)
    data_format, rank = _layout(x, data_format)
    _check_kernel(kernel, rank)
    strides, dilation = _window_args(rank, strides, dilation_rate)
    channels = conv_math.channels(x.shape, data_format)
    groups = conv_math.check_conv_channels(channels, kernel.shape[-2])
    if bias and tuple(bias[0].shape) != (kernel.shape[-1],):
        raise ValueError(
            f"the bias has shape {tuple(bias[0].shape)}; the kernel has {kernel.shape[-1]} filters."
        )
    x = _channels_first(x, data_format)
    y = _conv_nd(x, _torch_weight(kernel), strides, padding, dilation, groups, *bias)
    return _restore(y, data_format, dtype)


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    return _conv((inputs, kernel), strides, padding, data_format, dilation_rate)


def _depthwise_weight(kernel, channels):
    """A (spatial..., in, multiplier) kernel as torch's grouped (in * multiplier, 1, spatial...)."""
    if kernel.shape[-2] != channels:
        raise ValueError(
            f"the depthwise kernel has {kernel.shape[-2]} input channels, the inputs {channels}."
        )
    return _torch_weight(kernel.reshape(*kernel.shape[:-2], 1, -1))


def _depthwise(x, kernel, strides, padding, data_format, dilation_rate):
    """Channels-first depthwise convolution of `x` (in `data_format`) and its layout facts."""
    data_format, rank = _layout(x, data_format)
    _check_kernel(kernel, rank, "depthwise_kernel")
    strides, dilation = _window_args(rank, strides, dilation_rate)
    channels = conv_math.channels(x.shape, data_format)
    weight = _depthwise_weight(kernel, channels)
    x = _channels_first(x, data_format)
    return _conv_nd(x, weight, strides, padding, dilation, groups=channels), data_format


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    (x, kernel), dtype = _conv_operands(inputs, kernel)
    y, data_format = _depthwise(x, kernel, strides, padding, data_format, dilation_rate)
    return _restore(y, data_format, dtype)


def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):  # fmt: skip
    (x, depthwise_kernel, pointwise_kernel), dtype = _conv_operands(
        inputs, depthwise_kernel, pointwise_kernel
    )
    y, data_format = _depthwise(x, depthwise_kernel, strides, padding, data_format, dilation_rate)
    _check_kernel(pointwise_kernel, y.ndim - 2, "pointwise_kernel")
    y = _CONV[y.ndim - 2](y, _torch_weight(pointwise_kernel))
    return _restore(y, data_format, dtype)


def _per_dim(value, rank, name):
    """None, or an int / `rank` non-negative ints as a tuple (output_padding)."""
    if value is None:
        return (None,) * rank
    values = (value,) * rank if isinstance(value, int) else tuple(value)
    if len(values) != rank or not all(isinstance(v, int) and v >= 0 for v in values):
        raise ValueError(f"{name} must be a non-negative int or {rank} of them, got {value!r}.")
    return values


def _transpose_geometry(size, kernel, stride, padding, output_padding, dilation):
    """(crop, torch output_padding, Keras output length) of one dim of a transposed conv.

    Torch's transposed conv crops `crop` from both ends of the full output and may add up to
    max(stride, dilation) - 1 back at the end; what that cannot express is fitted afterwards.
    """
    span = conv_math.effective_kernel_size(kernel, dilation)
    before, _ = conv_math.conv_transpose_padding(kernel, stride, padding, output_padding, dilation)
    length = conv_math.conv_transpose_output_length(
        size, kernel, stride, padding, output_padding, dilation
    )
    crop = span - 1 - before
    natural = (size - 1) * stride + span - 2 * crop
    extra = min(max(length - natural, 0), max(stride, dilation) - 1)
    return crop, extra, length


def _fit(y, lengths):
    """Channels-first `y` cut or zero-padded at the end of each spatial dim to `lengths`."""
    for dim, length in enumerate(lengths, start=2):
        if y.shape[dim] > length:
            y = y.narrow(dim, 0, length)
    pads = [(0, length - n) for n, length in zip(y.shape[2:], lengths)]
    return _pad(y, pads) if any(after for _, after in pads) else y


def conv_transpose(inputs, kernel, strides=1, padding="valid", output_padding=None, data_format=None, dilation_rate=1):  # fmt: skip
    (x, kernel), dtype = _conv_operands(inputs, kernel)
    data_format, rank = _layout(x, data_format)
    _check_kernel(kernel, rank)
    strides, dilation = _window_args(rank, strides, dilation_rate)
    channels = conv_math.channels(x.shape, data_format)
    if kernel.shape[-1] != channels:
        raise ValueError(
            f"the conv_transpose kernel (spatial..., out, in) has {kernel.shape[-1]} input "
            f"channels, the inputs {channels}."
        )
    geometry = [
        _transpose_geometry(n, k, s, padding, op, d)
        for n, k, s, op, d in zip(
            conv_math.spatial_shape(x.shape, data_format),
            kernel.shape[:-2],
            strides,
            _per_dim(output_padding, rank, "output_padding"),
            dilation,
        )
    ]
    crops, extras, lengths = zip(*geometry)
    x = _channels_first(x, data_format)
    y = _CONV_TRANSPOSE[rank](x, _torch_weight(kernel), None, strides, crops, extras, 1, dilation)
    return _restore(_fit(y, lengths), data_format, dtype)


# ---------------------------------------------------------------- pooling


def _pool_setup(inputs, pool_size, strides, data_format):
    """(channels-first x, data format, pool, strides) of a pooling op."""
    x = convert_to_tensor(inputs)
    data_format, rank = _layout(x, data_format)
    pool = conv_math.normalize_tuple(pool_size, rank, "pool_size")
    strides = pool if strides is None else conv_math.normalize_tuple(strides, rank, "strides")
    return _channels_first(x, data_format), data_format, pool, strides


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    x, data_format, pool, strides = _pool_setup(inputs, pool_size, strides, data_format)
    dtype = x.dtype
    x = x.to(_exact_float(dtype))
    pads = conv_math.conv_padding(x.shape[2:], pool, strides, padding, (1,) * len(pool))
    x, torch_padding = _torch_padding(x, pads, -math.inf)
    y = _MAX_POOL[len(pool)](x, pool, strides, torch_padding)
    return _restore(y, data_format, dtype)


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    x, data_format, pool, strides = _pool_setup(inputs, pool_size, strides, data_format)
    x = as_floatx(x)
    pads = conv_math.conv_padding(x.shape[2:], pool, strides, padding, (1,) * len(pool))
    pool_nd = _AVG_POOL[len(pool)]
    if all(before == after for before, after in pads):
        padding = tuple(before for before, _ in pads)
        y = pool_nd(x, pool, strides, padding, count_include_pad=False)
    else:
        # Average over the real elements only: window sums of x over window counts.
        ones = torch.ones((1, 1, *x.shape[2:]), dtype=x.dtype, device=x.device)
        y = pool_nd(_pad(x, pads), pool, strides) / pool_nd(_pad(ones, pads), pool, strides)
    return _restore(y, data_format, y.dtype)


def _adaptive_pool(pools, inputs, output_size, data_format):
    x = convert_to_tensor(inputs)
    data_format, rank = _layout(x, data_format)
    size = conv_math.normalize_tuple(output_size, rank, "output_size")
    return pools[rank](_channels_first(x, data_format), size), data_format


def adaptive_average_pool(inputs, output_size, data_format=None):
    y, data_format = _adaptive_pool(_ADAPTIVE_AVG, as_floatx(inputs), output_size, data_format)
    return _restore(y, data_format, y.dtype)


def adaptive_max_pool(inputs, output_size, data_format=None):
    x = convert_to_tensor(inputs)
    values = x.to(_exact_float(x.dtype))
    y, data_format = _adaptive_pool(_ADAPTIVE_MAX, values, output_size, data_format)
    return _restore(y, data_format, x.dtype)


# ---------------------------------------------------------------- normalization


def _along(param, x, axes):
    """`param` shaped to broadcast against `x` over `axes` (a no-op if it has x's rank)."""
    if param.ndim == x.ndim:
        return param
    return param.reshape([x.shape[i] if i in axes else 1 for i in range(x.ndim)])


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=0.001):
    x, mean, variance, offset, scale = _promoted(x, mean, variance, offset, scale)
    axes = (check_axis("batch_normalization", axis, x.ndim),)
    inv = torch.rsqrt(_along(variance, x, axes) + epsilon)
    if scale is not None:
        inv = inv * _along(scale, x, axes)
    centered = x - _along(mean, x, axes)
    # Outside autograd (predict), the rest is written into `centered`: one allocation, not two.
    out = centered if _writable_in_place() else None
    if offset is None:
        return torch.mul(centered, inv, out=out)
    # offset + centered * inv in one pass (torch's folded x * a + b would lose digits to large means)
    return torch.addcmul(_along(offset, x, axes), centered, inv, out=out)


def _writable_in_place():
    """Whether a fresh intermediate may be overwritten: autograd records nothing (no_grad or
    inference mode) and no compiler is tracing."""
    return not torch.is_grad_enabled() and not torch.compiler.is_compiling()


def _batch_norm_training(x, axis, scale, offset, epsilon):
    """The `batch_norm_training` hook: one native kernel with the features moved to axis 1 (a view:
    channels-last data stays in its memory format), its statistics caught in scratch running
    buffers (momentum 1 stores the batch's own; torch stores the unbiased variance)."""
    x, scale, offset = _promoted(x, scale, offset)
    axis = check_axis("batch_norm_training", axis, x.ndim)
    if x.numel() < 2 * x.shape[axis]:  # the kernel refuses one value per feature
        variance, mean = torch.var_mean(x, [d for d in range(x.ndim) if d != axis], correction=0)
        return batch_normalization(x, mean, variance, axis, offset, scale, epsilon), mean, variance
    features = x.movedim(axis, 1) if axis != 1 else x
    mean = torch.zeros(features.shape[1], dtype=x.dtype, device=x.device)
    variance = torch.ones_like(mean)
    y = F.batch_norm(features, mean, variance, scale, offset, True, 1.0, epsilon)
    count = x.numel() // features.shape[1]
    # Out of place: autograd saved the buffers.
    return (y.movedim(1, axis) if axis != 1 else y), mean, variance * ((count - 1) / count)


def _norm_param(param, dtype):
    """A scale or offset (or None) as a tensor of `dtype`; a tensor that is one passes as is."""
    if param is None or (isinstance(param, torch.Tensor) and param.dtype == dtype):
        return param
    return convert_to_tensor(param, dtype)


def _shaped(param, shape):
    """`param` (or None) in `shape`, reshaped only when it is not already in it."""
    return param if param is None or param.shape == shape else param.reshape(shape)


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    rms_scaling = kwargs.pop("rms_scaling", False)
    if kwargs:
        raise TypeError(f"unexpected keyword arguments {sorted(kwargs)}.")
    x = as_floatx(x)
    epsilon = config.epsilon() if epsilon is None else epsilon
    axes = _axes(axis, x.ndim, "layer_normalization")
    trailing = axes == tuple(range(x.ndim - len(axes), x.ndim))
    gamma, beta = _norm_param(gamma, x.dtype), _norm_param(beta, x.dtype)
    if trailing and not rms_scaling:
        shape = x.shape[x.ndim - len(axes) :]
        gamma, beta = _shaped(gamma, shape), _shaped(beta, shape)
        return F.layer_norm(x, shape, gamma, beta, epsilon)
    stats = x.to(stats_dtype(x.dtype))
    variance, mean = torch.var_mean(stats, axes, correction=0, keepdim=True)
    y = (stats if rms_scaling else stats - mean) * torch.rsqrt(variance + epsilon)
    y = y.to(x.dtype)
    if gamma is not None:
        y = y * _along(gamma, x, axes)
    if beta is not None and not rms_scaling:
        y = y + _along(beta, x, axes)
    return y


def moments(x, axes, keepdims=False, synchronized=False):
    x = as_floatx(x)
    stats = x.to(stats_dtype(x.dtype))
    dims = _axes(axes, x.ndim, "moments")
    variance, mean = torch.var_mean(stats, dims, correction=0, keepdim=keepdims)
    return mean.to(x.dtype), variance.to(x.dtype)


# ---------------------------------------------------------------- classification and losses


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    if sparse:
        raise ValueError("sparse=True is not supported: the torch backend has no sparse tensors.")
    x = convert_to_tensor(x, dtype=class_indices_dtype("one_hot", x))
    axis = check_axis("one_hot", axis, x.ndim + 1)
    classes = torch.arange(num_classes, device=x.device)
    hot = (x.unsqueeze(-1).long() == classes).to(to_torch_dtype(dtype))
    return hot.movedim(-1, axis)


def _matching(target, output):
    """Target and output in their shared float dtype; a ValueError unless their shapes match."""
    target, output = _promoted(target, output)
    if target.shape != output.shape:
        raise ValueError(
            f"target and output must have the same shape, got {tuple(target.shape)} and "
            f"{tuple(output.shape)}."
        )
    return target, output


def _log_probs(output, from_logits, axis):
    """Log-probabilities from logits, or from (renormalised, clipped) probabilities."""
    if from_logits:
        return torch.log_softmax(output, axis)
    epsilon = config.epsilon()
    output = output / output.sum(axis, keepdim=True)
    return torch.log(output.clamp(epsilon, 1.0 - epsilon))


def binary_crossentropy(target, output, from_logits=False):
    target, output = _matching(target, output)
    if from_logits:
        return F.binary_cross_entropy_with_logits(output, target, reduction="none")
    epsilon = config.epsilon()
    output = output.clamp(epsilon, 1.0 - epsilon)
    return -(target * torch.log(output) + (1.0 - target) * torch.log(1.0 - output))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target, output = _matching(target, output)
    if output.ndim < 1:
        raise ValueError("output must have at least one dimension (the classes).")
    axis = check_axis("categorical_crossentropy", axis, output.ndim)
    return -(target * _log_probs(output, from_logits, axis)).sum(axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target, output = convert_to_tensor(target), as_floatx(output)
    if output.ndim < 1:
        raise ValueError("output must have at least one dimension (the classes).")
    axis = check_axis("sparse_categorical_crossentropy", axis, output.ndim)
    if target.ndim == output.ndim and target.shape[axis] == 1:
        target = target.squeeze(axis)
    expected = output.shape[:axis] + output.shape[axis + 1 :]
    if target.shape != expected:
        raise ValueError(
            f"target shape {tuple(target.shape)} does not match output shape "
            f"{tuple(output.shape)} without its class axis {axis}."
        )
    classes = output.shape[axis]
    index = target.long().unsqueeze(axis)
    picked = _log_probs(output, from_logits, axis).gather(axis, index.clamp(0, classes - 1))
    # Out-of-range targets one-hot encode to zeros, so they cost nothing.
    valid = (index >= 0) & (index < classes)
    return -picked.masked_fill(~valid, 0.0).squeeze(axis)


# ---------------------------------------------------------------- attention


def _large_negative(dtype):
    """The logit that masked positions get: a fully masked row attends uniformly, as in Keras."""
    return -0.7 * torch.finfo(dtype).max


def _allowed(mask, is_causal, query_len, key_len, device):
    """The boolean (..., T, S) mask of positions that take part, or None for all."""
    allowed = None if mask is None else convert_to_tensor(mask).to(torch.bool)
    if is_causal:
        causal = torch.ones((query_len, key_len), dtype=torch.bool, device=device).tril()
        allowed = causal if allowed is None else allowed & causal
    return allowed


def _attention_logits(q, k, bias, allowed, scale, soft_cap):
    """The (B, N, T, S) logits, formed in float32 at least, soft-capped, biased and masked."""
    wide = stats_dtype(q.dtype)
    logits = (q.to(wide) @ k.to(wide).transpose(-1, -2)) * scale
    if soft_cap is not None:
        logits = soft_cap * torch.tanh(logits / soft_cap)
    if bias is not None:
        logits = logits + bias
    if allowed is not None:
        logits = logits.masked_fill(~allowed, _large_negative(logits.dtype))
    return logits


def dot_product_attention(query, key, value, bias=None, mask=None, scale=None, is_causal=False, flash_attention=None, attn_logits_soft_cap=None):  # fmt: skip
    query, key, value = _promoted(query, key, value)
    unbatched = query.ndim == 3
    if unbatched:
        query, key, value = query[None], key[None], value[None]
    if query.ndim != 4 or key.ndim != 4 or key.shape != value.shape:
        raise ValueError(
            "query must be (B, T, N, H) or unbatched (T, N, H), and key, value the same "
            f"(B, S, K, H) shape; got {tuple(query.shape)}, {tuple(key.shape)}, "
            f"{tuple(value.shape)}."
        )
    heads, kv_heads = query.shape[2], key.shape[2]
    if heads % kv_heads:
        raise ValueError(f"query heads ({heads}) must be a multiple of key heads ({kv_heads}).")
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    q, k, v = (t.transpose(1, 2) for t in (query, key, value))
    groups = heads // kv_heads
    bias = None if bias is None else convert_to_tensor(bias, q.dtype)
    if flash_attention is None:  # the global switch decides (tripod.config.disable_flash_attention)
        flash_attention = config.is_flash_attention_enabled()
    if attn_logits_soft_cap is None and flash_attention is not False:
        out = _fused_attention(q, k, v, bias, mask, scale, is_causal, groups > 1)
    else:
        k, v = (t.repeat_interleave(groups, 1) for t in (k, v))
        allowed = _allowed(mask, is_causal, q.shape[2], k.shape[2], q.device)
        logits = _attention_logits(q, k, bias, allowed, scale, attn_logits_soft_cap)
        out = torch.softmax(logits, -1).to(v.dtype) @ v
    out = out.transpose(1, 2)
    return out[0] if unbatched else out


def _fused_attention(q, k, v, bias, mask, scale, is_causal, grouped):
    """torch's fused attention over (B, N, T, H) tensors; a mask becomes an additive bias
    holding Keras' masked logit, so fully masked rows still attend uniformly."""
    causal_only = is_causal and mask is None and bias is None
    if not causal_only:
        allowed = _allowed(mask, is_causal, q.shape[2], k.shape[2], q.device)
        if allowed is not None:
            kept = torch.zeros((), dtype=q.dtype, device=q.device) if bias is None else bias
            bias = torch.where(allowed, kept, _large_negative(q.dtype))
    return F.scaled_dot_product_attention(
        q, k, v, attn_mask=bias, is_causal=causal_only, scale=scale, enable_gqa=grouped
    )


# ---------------------------------------------------------------- sliding blocks


def _blocks_input(x, rank, name):
    x = convert_to_tensor(x)
    if x.ndim != rank:
        raise ValueError(f"{name} needs a rank-{rank} tensor, got shape {tuple(x.shape)}.")
    return x.to(_exact_float(x.dtype)), x.dtype


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    x, dtype = _blocks_input(x, 4, "unfold")
    return F.unfold(x, kernel_size, dilation, padding, stride).to(dtype)


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    x, dtype = _blocks_input(x, 3, "fold")
    return F.fold(x, output_size, kernel_size, dilation, padding, stride).to(dtype)
