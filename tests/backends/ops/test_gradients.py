"""Gradients through ops whose fast paths differ from their differentiated form."""

import numpy as np
import pytest

from tripod.backends import active, config

ops = active()

pytestmark = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend has no gradients"
)


def _grad(fn, value):
    variable = ops.Variable(np.asarray(value, "float32"))
    _, (grad,) = ops.value_and_grad(lambda: ops.sum(fn(variable.value)), [variable])()
    return np.asarray(ops.convert_to_numpy(grad))


def test_divide_no_nan_has_finite_gradients_where_it_divides_by_zero():
    denominator = np.array([0.0, 2.0, 0.0, -4.0], "float32")
    numerator_grad = _grad(lambda x: ops.divide_no_nan(x, denominator), [1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(numerator_grad, [0.0, 0.5, 0.0, -0.25])
    numerator = np.array([1.0, 2.0, 3.0, 4.0], "float32")
    denominator_grad = _grad(lambda x: ops.divide_no_nan(numerator, x), denominator)
    np.testing.assert_array_equal(denominator_grad, [0.0, -0.5, 0.0, -0.25])


def test_mean_over_an_axis_of_one_passes_the_gradient_through():
    grad = _grad(lambda x: ops.multiply(ops.mean(x, axis=1), 3.0), np.ones((2, 1, 3)))
    np.testing.assert_array_equal(grad, np.full((2, 1, 3), 3.0, "float32"))


def test_dropout_at_rate_one_has_zero_gradients_not_nan():
    grad = _grad(lambda x: ops.dropout(x, 1.0, seed=1), [1.0, -2.0, 3.0])
    np.testing.assert_array_equal(grad, [0.0, 0.0, 0.0])
