"""The jax training batch-norm hook: values against NumPy, gradients against autodiff of the
derived formula (moments, then batch_normalization) it replaces."""

import numpy as np
import pytest

from tripod.backends import config

if config.backend() != "jax":
    pytest.skip("the jax backend's own batch-norm kernel", allow_module_level=True)

import jax  # only once the jax backend is known to be active

from tripod.backends.common.derived import hooks as derived
from tripod.backends.jax import batch_norm
from tripod.backends.jax import nn as jax_nn


class _Ops:
    """The two jax ops the derived hook calls."""

    moments = staticmethod(jax_nn.moments)
    batch_normalization = staticmethod(jax_nn.batch_normalization)

    @staticmethod
    def shape(x):
        return x.shape


def _derived(x, axis, scale, offset, epsilon):
    return derived.batch_norm_training(_Ops, x, axis, scale, offset, epsilon)


def _numpy(x, axis, scale, offset, epsilon):
    axes = tuple(a for a in range(x.ndim) if a != axis % x.ndim)
    mean = x.mean(axis=axes, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    y = (x - mean) / np.sqrt(variance + epsilon)
    shape = mean.shape
    if scale is not None:
        y = y * scale.reshape(shape)
    if offset is not None:
        y = y + offset.reshape(shape)
    return y, mean.reshape(-1), variance.reshape(-1)


def _data(shape, axis, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(3.0, 2.0, shape).astype("float32")
    features = shape[axis]
    return (
        x,
        rng.normal(size=features).astype("float32"),
        rng.normal(size=features).astype("float32"),
    )


@pytest.mark.parametrize(("shape", "axis"), [((4, 5, 6, 7), -1), ((3, 4, 5), 1), ((6, 3), 0)])
@pytest.mark.parametrize("affine", [True, False])
def test_values_match_numpy(shape, axis, affine):
    x, scale, offset = _data(shape, axis)
    scale, offset = (scale, offset) if affine else (None, None)
    got = batch_norm.batch_norm_training(x, axis, scale, offset, 1e-3)
    for value, expected in zip(got, _numpy(x.astype("float64"), axis, scale, offset, 1e-3)):
        np.testing.assert_allclose(np.asarray(value), expected, rtol=1e-5, atol=1e-5)


def _weighted_loss(fn, axis, weights):
    """A scalar of every output of `fn`, so that each carries a cotangent."""

    def loss(x, scale, offset):
        outputs, mean, variance = fn(x, axis, scale, offset, 1e-3)
        return sum(jax.numpy.sum(v * w) for v, w in zip((outputs, mean, variance), weights))

    return loss


@pytest.mark.parametrize(("shape", "axis"), [((4, 5, 6, 7), 3), ((3, 4, 5), 1)])
def test_gradients_match_autodiff_of_the_derived_formula(shape, axis):
    x, scale, offset = _data(shape, axis, seed=1)
    rng = np.random.default_rng(2)
    weights = [rng.normal(size=s).astype("float32") for s in (shape, scale.shape, scale.shape)]
    grads = [
        jax.grad(_weighted_loss(fn, axis, weights), argnums=(0, 1, 2))(x, scale, offset)
        for fn in (batch_norm.batch_norm_training, _derived)
    ]
    for got, expected in zip(*grads):
        scale_of = np.abs(np.asarray(expected)).max()
        np.testing.assert_allclose(np.asarray(got), np.asarray(expected), atol=1e-5 * scale_of)


def test_gradient_of_x_matches_the_closed_form():
    x, scale, offset = _data((8, 3), 1, seed=3)
    g = np.random.default_rng(4).normal(size=x.shape)

    def loss(x):
        return jax.numpy.sum(batch_norm.batch_norm_training(x, 1, scale, offset, 1e-3)[0] * g)

    got = np.asarray(jax.grad(loss)(x))
    x64 = x.astype("float64")
    inv = 1 / np.sqrt(x64.var(axis=0) + 1e-3)
    normalized = (x64 - x64.mean(axis=0)) * inv
    expected = scale * inv * (g - g.mean(axis=0) - normalized * (g * normalized).mean(axis=0))
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


def test_half_inputs_are_computed_in_float32_and_returned_in_their_dtype():
    x = _data((4, 6), 1, seed=5)[0]
    got = batch_norm.batch_norm_training(x.astype("float16"), 1, None, None, 1e-3)
    assert [str(v.dtype) for v in got] == ["float16"] * 3
    expected = _numpy(x.astype("float16").astype("float64"), 1, None, None, 1e-3)
    for value, want in zip(got, expected):
        np.testing.assert_allclose(np.asarray(value, "float64"), want, rtol=2e-3, atol=2e-3)


def test_bad_axis_is_a_value_error():
    x = _data((2, 3), 1)[0]
    with pytest.raises(ValueError, match="batch_norm_training"):
        batch_norm.batch_norm_training(x, 2, None, None, 1e-3)
