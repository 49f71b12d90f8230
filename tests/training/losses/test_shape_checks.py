"""Rank matching and shape checks of the loss helpers: what they return and the errors they raise."""

import numpy as np
import pytest

from tests.training.losses.helpers import ops, to_numpy
from tripod.training import losses
from tripod.training.losses.loss import float_pair, match_ranks, reduce_weighted_values


@pytest.mark.parametrize(
    "shape1, shape2, matched1, matched2",
    [
        ((4, 1), (4,), (4, 1), (4, 1)),  # a rank-1 tensor gains a trailing 1
        ((4,), (4, 1), (4, 1), (4, 1)),
        ((4, 3, 1), (4, 3), (4, 3), (4, 3)),  # otherwise the trailing 1 goes
        ((4, 3), (4, 3, 1), (4, 3), (4, 3)),
        ((), (1,), (), ()),
        ((4, 2), (4,), (4, 2), (4,)),  # no trailing 1: unchanged
    ],
)
def test_match_ranks(shape1, shape2, matched1, matched2):
    x1, x2 = match_ranks(ops.zeros(shape1), ops.zeros(shape2))
    assert tuple(ops.shape(x1)) == matched1 and tuple(ops.shape(x2)) == matched2


def test_float_pair_casts_matches_and_checks():
    y_true, y_pred = float_pair(np.array([1, 2, 3]), np.ones((3, 1), "float32"), "pair")
    assert ops.dtype(y_true) == "float32" and tuple(ops.shape(y_true)) == (3, 1)
    np.testing.assert_array_equal(to_numpy(y_true), [[1.0], [2.0], [3.0]])
    y_true, y_pred = float_pair(np.ones((3, 2), "float16"), np.array([[1], [2], [3]]), "pair")
    assert ops.dtype(y_pred) == "float32" and ops.dtype(y_true) == "float32"
    y_true, y_pred = float_pair(np.ones((3, 2, 1)), np.ones((2, 1), "float16"), "pair", match=False)
    assert tuple(ops.shape(y_true)) == (3, 2, 1) and ops.dtype(y_true) == "float16"


def test_shape_errors_name_the_matched_shapes():
    with pytest.raises(
        ValueError, match=r"^mean_squared_error: y_true and y_pred: shapes \(2, 3\) and \(2, 4\)"
    ):
        losses.mean_squared_error(np.zeros((2, 3, 1)), np.zeros((2, 4)))
    with pytest.raises(
        ValueError, match=r"^dice: y_true and y_pred: shapes \(2, 3, 1\) and \(2, 4\)"
    ):
        losses.dice(np.zeros((2, 3, 1)), np.zeros((2, 4)))
    with pytest.raises(
        ValueError,
        match=r"^sample_weight does not broadcast to the loss values: shapes \(2, 1\) and \(3, 1\)",
    ):
        reduce_weighted_values(ops.ones((2,)), np.ones((3, 1)))


def test_losses_on_nested_and_single_inputs_agree():
    class PairMean(losses.Loss):
        def call(self, y_true, y_pred):
            return ops.mean(ops.multiply(y_true[0], ops.add(y_pred["a"], y_pred["b"])), axis=-1)

    y_true = np.arange(6, dtype="float64").reshape(2, 3)
    y_pred = {"a": np.ones((2, 3), "float16"), "b": np.full((2, 3), 2, "int32")}
    value = PairMean()([y_true, None], y_pred)
    assert ops.dtype(value) == "float32"
    np.testing.assert_allclose(to_numpy(value), np.mean(y_true * 3.0))
    single = losses.MeanSquaredError()(y_true, np.zeros((2, 3), "float16"))
    assert ops.dtype(single) == "float32"
    np.testing.assert_allclose(to_numpy(single), np.mean(y_true**2), rtol=1e-6)
