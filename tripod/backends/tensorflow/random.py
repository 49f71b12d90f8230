"""The tensorflow backend: random ops, from TensorFlow's stateless generators.

`common.seed.draw_seed` turns `seed` into a two-word key, so the same int seed always gives the
same numbers, a `SeedGenerator` gives a fresh key per draw, and everything works in `tf.function`.
"""

import tensorflow as tf

import tripod.backends
from tripod.backends.common import seed as seeding
from tripod.backends.common.random_args import dropout_rate, float_dtype, int_dtype
from tripod.backends.tensorflow.tensors import cast, convert_to_tensor, tf_dtype

__all__ = [
    "beta",
    "binomial",
    "categorical",
    "dropout",
    "gamma",
    "normal",
    "randint",
    "shuffle",
    "truncated_normal",
    "uniform",
]


def _key(seed):
    """The int64[2] key TensorFlow's stateless ops take for `seed`."""
    key = seeding.draw_seed(seed, tripod.backends.load("tensorflow"))
    return tf.cast(convert_to_tensor(key), tf.int64)


def _keys(seed, count):
    """`count` independent keys from one `seed`."""
    return tf.unstack(tf.random.experimental.stateless_split(_key(seed), count))


def _float_dtype(dtype, name):
    """The TensorFlow dtype of float `dtype`; a ValueError naming op `name` if it is no float."""
    return tf_dtype(float_dtype(dtype, name))


def _shape(shape):
    """A shape argument as TensorFlow's random ops take it: a 1-D shape tensor stays as it is
    (`tf.shape(x)` in a compiled step), a scalar or a sequence (of ints or scalar tensors, such
    as a batch size read in a trace) becomes a list."""
    if tf.is_tensor(shape) and shape.shape.rank == 1:
        return shape
    return [shape] if isinstance(shape, int) or tf.is_tensor(shape) else list(shape)


def _sampled(dtype):
    """The dtype to draw in for `dtype`: float32 for half floats (the results are cast back)."""
    return tf.float32 if dtype in (tf.float16, tf.bfloat16) else dtype


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    dtype = _float_dtype(dtype, "normal")
    work = _sampled(dtype)
    samples = tf.random.stateless_normal(_shape(shape), _key(seed), dtype=work)
    return tf.cast(samples * cast(stddev, work) + cast(mean, work), dtype)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    dtype = _float_dtype(dtype, "truncated_normal")
    work = _sampled(dtype)
    samples = tf.random.stateless_truncated_normal(_shape(shape), _key(seed), dtype=work)
    return tf.cast(samples * cast(stddev, work) + cast(mean, work), dtype)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    dtype = _float_dtype(dtype, "uniform")
    work = _sampled(dtype)
    low, high = cast(minval, work), cast(maxval, work)
    samples = tf.random.stateless_uniform(_shape(shape), _key(seed), dtype=work)
    return tf.cast(low + samples * (high - low), dtype)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    dtype = int_dtype(dtype, "randint")
    low, high = cast(minval, tf.int64), cast(maxval, tf.int64)
    samples = tf.random.stateless_uniform(
        _shape(shape), _key(seed), minval=low, maxval=high, dtype=tf.int64
    )
    return tf.cast(samples, tf_dtype(dtype))


def categorical(logits, num_samples, dtype="int32", seed=None):
    logits = convert_to_tensor(logits)
    if logits.shape.rank != 2:
        raise ValueError(
            f"categorical needs logits of shape (batch, classes), received {logits.shape}."
        )
    logits = tf.cast(logits, tf.float32 if logits.dtype != tf.float64 else tf.float64)
    samples = tf.random.stateless_categorical(logits, num_samples, _key(seed), dtype=tf.int64)
    return tf.cast(samples, tf_dtype(dtype))


def dropout(inputs, rate, noise_shape=None, seed=None):
    inputs = convert_to_tensor(inputs)
    if not isinstance(rate, tf.Tensor):
        rate = dropout_rate(rate)
    shape = tf.shape(inputs)
    if noise_shape is not None:
        noise_shape = [shape[i] if n is None else n for i, n in enumerate(noise_shape)]
    keep = tf.random.stateless_uniform(
        shape if noise_shape is None else noise_shape, _key(seed), dtype=tf.float32
    ) >= tf.cast(rate, tf.float32)
    scaled = tf.math.divide_no_nan(inputs, tf.cast(1 - rate, inputs.dtype))  # 0 at rate 1
    return tf.where(keep, scaled, tf.zeros_like(inputs))


def shuffle(x, axis=0, seed=None):
    x = convert_to_tensor(x)
    axis = axis % x.shape.rank
    keys = tf.random.stateless_uniform([tf.shape(x)[axis]], _key(seed), dtype=tf.float32)
    return tf.gather(x, tf.argsort(keys), axis=axis)


def gamma(shape, alpha, dtype=None, seed=None):
    dtype = _float_dtype(dtype, "gamma")
    work = tf.float64 if dtype == tf.float64 else tf.float32
    samples = tf.random.stateless_gamma(
        _shape(shape), _key(seed), alpha=cast(alpha, work), dtype=work
    )
    return tf.cast(samples, dtype)


def beta(shape, alpha, beta, dtype=None, seed=None):
    dtype = _float_dtype(dtype, "beta")
    work = tf.float64 if dtype == tf.float64 else tf.float32
    first, second = _keys(seed, 2)
    x = tf.random.stateless_gamma(_shape(shape), first, alpha=cast(alpha, work), dtype=work)
    y = tf.random.stateless_gamma(_shape(shape), second, alpha=cast(beta, work), dtype=work)
    return tf.cast(x / (x + y), dtype)


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    dtype = tf_dtype(dtype)
    work = tf.float64 if dtype == tf.float64 else tf.float32
    samples = tf.random.stateless_binomial(
        _shape(shape), _key(seed), cast(counts, work), cast(probabilities, work), output_dtype=work
    )
    return tf.cast(samples, dtype)
