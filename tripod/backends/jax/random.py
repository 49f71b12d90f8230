"""The jax backend: random ops, drawn with `jax.random` from keys given by `common.seed.draw_seed`.

The same int seed always gives the same numbers; a `SeedGenerator` gives a fresh key per draw
(its state is a variable, so a jitted step carries it).
"""

import jax
import jax.numpy as jnp

import tripod.backends
from tripod.backends import dtypes
from tripod.backends.common import seed as seeding
from tripod.backends.common.random_args import dropout_args, float_dtype, int_dtype, static_shape
from tripod.backends.jax.core import convert_to_tensor
from tripod.backends.jax.helpers import np_dtype

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
    """A jax PRNG key from the two uint32 words `draw_seed` gives for `seed`."""
    data = seeding.draw_seed(seed, tripod.backends.load("jax"))
    return jax.random.wrap_key_data(convert_to_tensor(data, "uint32"))


def _float_dtype(dtype, name):
    """The jax dtype of float `dtype` (a ValueError naming op `name` unless it is a float)."""
    return np_dtype(float_dtype(dtype, name))


def _param(x, dtype):
    return convert_to_tensor(x, dtype)


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    dtype = _float_dtype(dtype, "normal")
    samples = jax.random.normal(_key(seed), static_shape(shape), dtype)
    return samples * _param(stddev, dtype) + _param(mean, dtype)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    dtype = _float_dtype(dtype, "truncated_normal")
    samples = jax.random.truncated_normal(_key(seed), -2.0, 2.0, static_shape(shape), dtype)
    return samples * _param(stddev, dtype) + _param(mean, dtype)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    dtype = _float_dtype(dtype, "uniform")
    return jax.random.uniform(
        _key(seed), static_shape(shape), dtype, _param(minval, dtype), _param(maxval, dtype)
    )


def randint(shape, minval, maxval, dtype="int32", seed=None):
    dtype = np_dtype(int_dtype(dtype, "randint"))
    return jax.random.randint(
        _key(seed), static_shape(shape), _param(minval, dtype), _param(maxval, dtype), dtype
    )


def categorical(logits, num_samples, dtype="int32", seed=None):
    logits = convert_to_tensor(logits)
    if logits.ndim != 2:
        raise ValueError(
            f"categorical needs logits of shape (batch, classes), received {logits.shape}."
        )
    samples = jax.random.categorical(
        _key(seed), logits[:, None, :], axis=-1, shape=(logits.shape[0], int(num_samples))
    )
    return samples.astype(np_dtype(dtype))


def dropout(inputs, rate, noise_shape=None, seed=None):
    inputs = convert_to_tensor(inputs)
    rate, noise_shape = dropout_args(rate, noise_shape, inputs.shape)
    if rate == 1:  # every entry dropped: no 1 / 0 scale (its gradient would be NaN)
        return jnp.zeros_like(inputs)
    keep = jax.random.bernoulli(_key(seed), 1.0 - rate, noise_shape)
    scaled = inputs / jnp.asarray(1.0 - rate, inputs.dtype)
    return jnp.where(keep, scaled, jnp.zeros((), inputs.dtype)).astype(inputs.dtype)


def shuffle(x, axis=0, seed=None):
    return jax.random.permutation(_key(seed), convert_to_tensor(x), axis=axis, independent=False)


def gamma(shape, alpha, dtype=None, seed=None):
    dtype = _float_dtype(dtype, "gamma")
    return jax.random.gamma(_key(seed), _param(alpha, dtype), static_shape(shape), dtype)


def beta(shape, alpha, beta, dtype=None, seed=None):
    dtype = _float_dtype(dtype, "beta")
    return jax.random.beta(
        _key(seed), _param(alpha, dtype), _param(beta, dtype), static_shape(shape), dtype
    )


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    dtype = np_dtype(dtypes.standardize_dtype(dtype))
    work = np_dtype("float32")
    samples = jax.random.binomial(
        _key(seed), _param(counts, work), _param(probabilities, work), static_shape(shape), work
    )
    return samples.astype(dtype)
