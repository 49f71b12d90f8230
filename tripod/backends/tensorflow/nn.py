"""The tensorflow backend: neural-network ops (activations, normalization, losses, attention;
convolution, pooling and sliding blocks are in `conv.py`, CTC is in `ctc.py`).
"""

import math

import tensorflow as tf

from tripod.backends import config, dtypes
from tripod.backends.common.indices import class_indices_dtype
from tripod.backends.tensorflow.tensors import (
    cast,
    convert_to_tensor,
    promote,
    tf_dtype,
    to_float,
    wide_float,
)

__all__ = [
    "batch_norm_training",
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


#: input dtypes TensorFlow's fused batch-norm kernel takes (its statistics are float32)
_FUSED_DTYPES = (tf.float32, tf.float16, tf.bfloat16)


def batch_norm_training(x, axis, scale, offset, epsilon):
    """The training batch-norm hook: TensorFlow's fused kernel (one op forward, one backward, in
    place of about ten passes of moments and normalization) for features on the last axis of a
    float32 or half-float `x`; elsewhere the moments and `batch_normalization`. The fused
    kernel's statistics carry no gradient (as torch's kernel's): they feed the moving averages."""
    x = convert_to_tensor(x)
    ndim = x.shape.rank
    axis = axis % ndim
    if not _fuses(x, axis, scale, offset):
        mean, variance = moments(x, [a for a in range(ndim) if a != axis])
        return batch_normalization(x, mean, variance, axis, offset, scale, epsilon), mean, variance
    features = x.shape[-1]
    y, mean, unbiased, *_ = tf.raw_ops.FusedBatchNormV3(
        x=tf.reshape(x, [-1, 1, 1, features]),  # every position a row: any rank is NHWC
        scale=tf.ones([features]) if scale is None else tf.cast(scale, tf.float32),
        offset=tf.zeros([features]) if offset is None else tf.cast(offset, tf.float32),
        mean=tf.zeros([0]),
        variance=tf.zeros([0]),
        epsilon=epsilon,
        exponential_avg_factor=1.0,
        data_format="NHWC",
        is_training=True,
    )
    count = tf.cast(tf.shape(y)[0], tf.float32)
    variance = unbiased * ((count - 1) / tf.maximum(count, 1))  # the kernel's is Bessel-corrected
    return tf.reshape(y, tf.shape(x)), tf.cast(mean, x.dtype), tf.cast(variance, x.dtype)


def _fuses(x, axis, scale, offset):
    """Whether the fused batch-norm kernel computes this step: features last, a dtype it takes
    (shared by `scale` and `offset`), and at least one row."""
    given = [convert_to_tensor(v).dtype for v in (scale, offset) if v is not None]
    rows = x.shape[:-1].num_elements()
    return (
        x.shape.rank >= 2
        and axis == x.shape.rank - 1
        and x.shape[-1] is not None
        and x.dtype in _FUSED_DTYPES
        and all(d == x.dtype for d in given)
        and rows != 0
    )


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
    query, key, value = promote(query, key, value)
    if query.shape.rank == 3:  # unbatched
        args = (bias, mask, scale, is_causal, flash_attention, attn_logits_soft_cap)
        return dot_product_attention(query[None], key[None], value[None], *args)[0]
    query, key, value = _attention_operands(query, key, value)
    dtype, compute = query.dtype, wide_float(query.dtype)
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
