"""The random ops on the active backend: shapes, dtypes, ranges, moments and seeding.

Random streams differ between frameworks, so nothing here is compared with the reference.
Moments are checked on large samples with tolerances of several standard errors.
"""

import math

import numpy as np
import pytest

from tests.backends.ops import harness
from tripod.backends.common.seed import SeedGenerator

ops = harness.BACKEND
N = 20_000  # samples per moment check: the standard error of a mean is ~0.7% of the stddev
LOGITS = np.array([[0.0, 1.0, -1.0, 2.0], [3.0, 0.0, 0.0, -5.0]], "float32")
TRUNCATED_VARIANCE = 0.7737413  # the variance of a unit normal truncated to [-2, 2]
#: The one shape of the draws below: on an accelerator each sampler compiles per shape and dtype
#: (gamma and beta take seconds there), so the tests share the compiles.
SHAPE = (40, 5)

# op -> call with a given seed and shape: the ops checked for shape, dtype and seeding.
DRAWS = {
    "normal": lambda shape, **kw: ops.normal(shape, **kw),
    "uniform": lambda shape, **kw: ops.uniform(shape, **kw),
    "truncated_normal": lambda shape, **kw: ops.truncated_normal(shape, **kw),
    "randint": lambda shape, **kw: ops.randint(shape, 0, 10, **kw),
    "gamma": lambda shape, **kw: ops.gamma(shape, 2.0, **kw),
    "beta": lambda shape, **kw: ops.beta(shape, 2.0, 3.0, **kw),
    "binomial": lambda shape, **kw: ops.binomial(shape, 10, 0.3, **kw),
    "categorical": lambda shape, **kw: ops.categorical(LOGITS, int(np.prod(shape)), **kw),
    "dropout": lambda shape, **kw: ops.dropout(np.ones(shape, "float32"), 0.5, **kw),
    "shuffle": lambda shape, **kw: ops.shuffle(np.arange(np.prod(shape), dtype="float32"), **kw),
}
DEFAULT_DTYPES = {"randint": "int32", "categorical": "int32"}
TESTED = set(DRAWS)


def _np(x):
    return harness.to_numpy(x)


@pytest.mark.parametrize("op", sorted(DRAWS))
def test_shape_and_default_dtype(op):
    result = _np(DRAWS[op](SHAPE, seed=1))
    expected_shape = {"categorical": (2, 200), "shuffle": (200,)}.get(op, SHAPE)
    assert result.shape == expected_shape
    assert str(result.dtype) == DEFAULT_DTYPES.get(op, "float32")


@pytest.mark.parametrize("op", sorted(DRAWS))
def test_the_same_int_seed_gives_the_same_numbers(op):
    first, again = _np(DRAWS[op](SHAPE, seed=42)), _np(DRAWS[op](SHAPE, seed=42))
    np.testing.assert_array_equal(first, again)


@pytest.mark.parametrize("op", sorted(DRAWS))
def test_different_seeds_give_different_numbers(op):
    assert not np.array_equal(_np(DRAWS[op](SHAPE, seed=1)), _np(DRAWS[op](SHAPE, seed=2)))


@pytest.mark.parametrize("op", sorted(DRAWS))
def test_a_seed_generator_gives_fresh_numbers_each_draw(op):
    generator = SeedGenerator(7, backend=ops)
    first, second = _np(DRAWS[op](SHAPE, seed=generator)), _np(DRAWS[op](SHAPE, seed=generator))
    assert not np.array_equal(first, second)
    replay = SeedGenerator(7, backend=ops)
    np.testing.assert_array_equal(first, _np(DRAWS[op](SHAPE, seed=replay)))
    np.testing.assert_array_equal(second, _np(DRAWS[op](SHAPE, seed=replay)))


@pytest.mark.parametrize("op", sorted(DRAWS))
def test_no_seed_draws_from_the_global_generator(op):
    assert not np.array_equal(_np(DRAWS[op](SHAPE)), _np(DRAWS[op](SHAPE)))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "bfloat16"])
@pytest.mark.parametrize(
    "op", ["normal", "uniform", "truncated_normal", "gamma", "beta", "binomial"]
)
def test_float_dtypes(op, dtype):
    result = DRAWS[op](SHAPE, dtype=dtype, seed=3)
    assert ops.dtype(result) == harness.stored_dtype(dtype)
    assert tuple(ops.shape(result)) == SHAPE


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8"])
def test_randint_dtypes(dtype):
    result = ops.randint((3, 2), 0, 5, dtype=dtype, seed=3)
    assert ops.dtype(result) == harness.stored_dtype(dtype)


def test_categorical_int64():
    result = ops.categorical(LOGITS, 4, dtype="int64", seed=1)
    assert ops.dtype(result) == harness.stored_dtype("int64")


def _assert_moments(x, mean, std, rel=0.05):
    """The sample mean within ~7 standard errors and the stddev within `rel` of `std`."""
    assert abs(x.mean() - mean) < 7 * std / math.sqrt(x.size) + 1e-6, (x.mean(), mean)
    assert abs(x.std() - std) < rel * std, (x.std(), std)


def test_normal_moments():
    x = _np(ops.normal((N,), mean=2.0, stddev=3.0, seed=11))
    _assert_moments(x, 2.0, 3.0)


def test_uniform_range_and_moments():
    x = _np(ops.uniform((N,), minval=-1.0, maxval=3.0, seed=12))
    assert x.min() >= -1.0 and x.max() < 3.0
    _assert_moments(x, 1.0, 4 / math.sqrt(12))


def test_uniform_in_float64():
    x = _np(ops.uniform((N,), 5.0, 6.0, dtype="float64", seed=5))
    assert x.dtype == harness.stored_dtype("float64") and x.min() >= 5.0 and x.max() < 6.0


def test_truncated_normal_range_and_moments():
    x = _np(ops.truncated_normal((N,), mean=1.0, stddev=0.5, seed=13))
    assert x.min() >= 1.0 - 2 * 0.5 - 1e-6 and x.max() <= 1.0 + 2 * 0.5 + 1e-6
    _assert_moments(x, 1.0, 0.5 * math.sqrt(TRUNCATED_VARIANCE))


def test_randint_range_and_moments():
    x = _np(ops.randint((N,), -3, 7, seed=14))
    assert x.min() == -3 and x.max() == 6
    _assert_moments(x, 1.5, math.sqrt((10**2 - 1) / 12))


def test_gamma_moments():
    x = _np(ops.gamma((N,), 3.0, seed=15))
    assert x.min() > 0
    _assert_moments(x, 3.0, math.sqrt(3.0), rel=0.06)


def test_gamma_with_small_alpha():
    x = _np(ops.gamma((N,), 0.5, seed=16))
    assert x.min() >= 0
    _assert_moments(x, 0.5, math.sqrt(0.5), rel=0.08)


def test_beta_range_and_moments():
    a, b = 2.0, 5.0
    x = _np(ops.beta((N,), a, b, seed=17))
    assert x.min() >= 0 and x.max() <= 1
    std = math.sqrt(a * b / ((a + b) ** 2 * (a + b + 1)))
    _assert_moments(x, a / (a + b), std)


def test_binomial_range_and_moments():
    x = _np(ops.binomial((N,), 20, 0.25, seed=18))
    assert np.all(x == np.round(x)) and x.min() >= 0 and x.max() <= 20
    _assert_moments(x, 5.0, math.sqrt(20 * 0.25 * 0.75))


def test_binomial_broadcasts_counts_and_probabilities():
    counts = np.array([5.0, 50.0], "float32")
    probabilities = np.array([0.9, 0.1], "float32")
    x = _np(ops.binomial((N // 2, 2), counts, probabilities, seed=19))
    assert x.shape == (N // 2, 2)
    np.testing.assert_allclose(x.mean(axis=0), [4.5, 5.0], rtol=0.05)


def test_categorical_frequencies_follow_the_softmax():
    x = _np(ops.categorical(LOGITS, N, seed=20))
    assert x.shape == (2, N) and x.min() >= 0 and x.max() < 4
    probabilities = np.exp(LOGITS) / np.exp(LOGITS).sum(-1, keepdims=True)
    for row in range(2):
        frequencies = np.bincount(x[row], minlength=4) / N
        np.testing.assert_allclose(frequencies, probabilities[row], atol=0.015)


def test_dropout_zeroes_rate_and_rescales_the_rest():
    x = _np(ops.dropout(np.full((N,), 2.0, "float32"), 0.3, seed=21))
    kept = x != 0
    assert abs(1 - kept.mean() - 0.3) < 0.02
    np.testing.assert_allclose(x[kept], 2.0 / 0.7, rtol=1e-6)


def test_dropout_noise_shape_broadcasts_the_mask():
    x = _np(ops.dropout(np.ones((6, 50), "float32"), 0.5, noise_shape=(1, 50), seed=22))
    assert x.shape == (6, 50)
    assert np.all(x == x[0]), "one mask, repeated along the axis of size 1 in noise_shape"


def test_dropout_keeps_dtype_and_rate_zero_is_identity():
    x = harness.randn(3, 4).astype("float64")
    assert ops.dtype(ops.dropout(x, 0.5, seed=1)) == harness.stored_dtype("float64")
    np.testing.assert_array_equal(
        _np(ops.dropout(x, 0.0, seed=1)), x.astype(harness.stored_dtype("float64"))
    )


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
def test_dropout_at_rate_one_zeros_every_entry_as_in_keras(dtype):
    x = np.array([[1.0, -2.0, np.inf], [0.5, 3.0, -np.inf]], dtype)
    y = ops.dropout(x, 1.0, seed=1)
    assert ops.dtype(y) == harness.stored_dtype(dtype)
    np.testing.assert_array_equal(_np(y), np.zeros((2, 3)))


@pytest.mark.parametrize("rate", [-0.1, 1.5])
def test_dropout_rate_outside_zero_to_one_is_a_value_error(rate):
    with pytest.raises(ValueError, match=r"rate must lie in \[0, 1\]"):
        ops.dropout(np.ones(3, "float32"), rate, seed=1)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_shuffle_permutes_whole_slices(axis):
    x = np.arange(24, dtype="float32").reshape(4, 6)
    shuffled = _np(ops.shuffle(x, axis=axis, seed=23))
    assert shuffled.shape == x.shape
    moved = np.moveaxis(shuffled, axis, 0)
    original = np.moveaxis(x, axis, 0)
    assert sorted(map(tuple, moved)) == sorted(map(tuple, original))


def test_shuffle_moves_things():
    x = np.arange(100, dtype="int32")
    shuffled = _np(ops.shuffle(x, seed=24))
    assert sorted(shuffled) == list(x) and not np.array_equal(shuffled, x)
    assert shuffled.dtype == np.int32
