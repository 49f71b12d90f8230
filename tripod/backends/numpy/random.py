"""The numpy backend: random ops, drawn from a Philox generator keyed by `common.seed.draw_seed`.

The same int seed always gives the same numbers; a `SeedGenerator` gives a fresh key per draw.
"""

import numpy as np

import tripod.backends
from tripod.backends import dtypes
from tripod.backends.common import seed as seeding
from tripod.backends.common.random_args import dropout_args, float_dtype, int_dtype, static_shape
from tripod.backends.numpy import rules
from tripod.backends.numpy.core import convert_to_tensor

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


def _generator(seed):
    """A NumPy generator keyed by the two uint32 words `draw_seed` gives for `seed`."""
    key = np.asarray(seeding.draw_seed(seed, tripod.backends.load("numpy"))).astype(np.uint64)
    return np.random.Generator(np.random.Philox(key=key))


def _value(x):
    """A scalar or tensor parameter as a float64 array."""
    return np.asarray(convert_to_tensor(x), dtype=np.float64)


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    dtype = float_dtype(dtype, "normal")
    samples = _generator(seed).standard_normal(static_shape(shape))
    return rules.finish(samples * _value(stddev) + _value(mean), dtype)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    dtype = float_dtype(dtype, "truncated_normal")
    generator = _generator(seed)
    samples = generator.standard_normal(static_shape(shape))
    # Redraw anything beyond two standard deviations until every sample lies inside.
    outside = np.abs(samples) > 2.0
    while outside.any():
        samples[outside] = generator.standard_normal(int(outside.sum()))
        outside = np.abs(samples) > 2.0
    return rules.finish(samples * _value(stddev) + _value(mean), dtype)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    dtype = float_dtype(dtype, "uniform")
    low, high = _value(minval), _value(maxval)
    samples = _generator(seed).random(static_shape(shape))
    return rules.finish(low + samples * (high - low), dtype)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    dtype = int_dtype(dtype, "randint")
    low = np.asarray(convert_to_tensor(minval)).astype(np.int64)
    high = np.asarray(convert_to_tensor(maxval)).astype(np.int64)
    samples = _generator(seed).integers(low, high, size=static_shape(shape), endpoint=False)
    return rules.finish(samples, dtype)


def categorical(logits, num_samples, dtype="int32", seed=None):
    logits = np.asarray(convert_to_tensor(logits), dtype=np.float64)
    if logits.ndim != 2:
        raise ValueError(
            f"categorical needs logits of shape (batch, classes), received {logits.shape}."
        )
    # Gumbel-max: the argmax of logits plus Gumbel noise is a draw from softmax(logits).
    noise = _generator(seed).gumbel(size=(logits.shape[0], int(num_samples), logits.shape[1]))
    samples = np.argmax(logits[:, None, :] + noise, axis=-1)
    return rules.finish(samples, dtypes.standardize_dtype(dtype))


def dropout(inputs, rate, noise_shape=None, seed=None):
    inputs = convert_to_tensor(inputs)
    rate, noise_shape = dropout_args(rate, noise_shape, inputs.shape)
    if rate == 1:  # every entry dropped: nothing to scale by 1 / 0
        return np.zeros_like(inputs)
    keep = _generator(seed).random(noise_shape) >= rate
    return rules.finish(np.where(keep, inputs / (1.0 - rate), 0), inputs.dtype)


def shuffle(x, axis=0, seed=None):
    x = convert_to_tensor(x)
    return _generator(seed).permutation(x, axis=axis)


def gamma(shape, alpha, dtype=None, seed=None):
    dtype = float_dtype(dtype, "gamma")
    return rules.finish(
        _generator(seed).standard_gamma(_value(alpha), size=static_shape(shape)), dtype
    )


def beta(shape, alpha, beta, dtype=None, seed=None):
    dtype = float_dtype(dtype, "beta")
    return rules.finish(
        _generator(seed).beta(_value(alpha), _value(beta), size=static_shape(shape)), dtype
    )


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    dtype = dtypes.standardize_dtype(dtype)
    counts = np.asarray(convert_to_tensor(counts)).astype(np.int64)
    samples = _generator(seed).binomial(counts, _value(probabilities), size=static_shape(shape))
    return rules.finish(samples, dtype)
