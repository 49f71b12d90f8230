"""The torch backend: nn ops (activations, normalization, losses, attention; convolution,
pooling and sliding blocks are in `conv.py`)."""

import math

import torch
import torch.nn.functional as F

from tripod.backends import config
from tripod.backends.common import fast_paths
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
    "batch_normalization",
    "binary_crossentropy",
    "categorical_crossentropy",
    "dot_product_attention",
    "elu",
    "gelu",
    "layer_normalization",
    "leaky_relu",
    "log_sigmoid",
    "log_softmax",
    "moments",
    "one_hot",
    "relu",
    "sigmoid",
    "silu",
    "softmax",
    "softplus",
    "sparse_categorical_crossentropy",
]


# ---------------------------------------------------------------- dtypes and axes


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
    inference mode), no compiler is tracing and the fast paths are on (`fast_paths.SHORTCUTS`)."""
    return (
        not torch.is_grad_enabled() and not torch.compiler.is_compiling() and fast_paths.enabled()
    )


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
    if bias is not None and bias.ndim < 2:  # the fused kernel takes a mask of rank 2 or more
        bias = bias.reshape((1,) * (2 - bias.ndim) + tuple(bias.shape))
    return F.scaled_dot_product_attention(
        q, k, v, attn_mask=bias, is_causal=causal_only, scale=scale, enable_gqa=grouped
    )
