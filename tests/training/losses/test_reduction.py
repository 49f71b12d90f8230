"""The Loss base class: reductions, sample-weight broadcasting, masks, dtypes and argument errors.

The hard-coded expectations are what Keras 3.15 returns for the same inputs.
"""

import numpy as np
import pytest

from tests.training.losses import reference as R
from tests.training.losses.cases import REAL, SPARSE
from tests.training.losses.helpers import assert_close, native, ops
from tripod.training import losses

Y_TRUE = np.array([[0.0, 1.0, 2.0], [1.0, 1.0, 0.0]], "float32")
Y_PRED = np.array([[1.0, 1.0, 0.0], [0.0, 2.0, 2.0]], "float32")

# reduction -> results with no weights, weights (2,), weights (2, 1), weight 2.0
KERAS_MSE = {
    "sum_over_batch_size": [1.8333333, 3.8333333, 3.8333333, 3.6666665],
    "sum": [3.6666665, 7.6666665, 7.6666665, 7.333333],
    "mean": [1.8333333, 3.8333333, 3.8333333, 3.6666665],
    "mean_with_sample_weight": [1.8333333, 1.9166666, 1.9166666, 3.6666665],
    "none": [[1.6666666, 2.0], [1.6666666, 6.0], [[1.6666666], [6.0]], [3.3333333, 4.0]],
}


@pytest.mark.parametrize("reduction", sorted(KERAS_MSE))
def test_reductions_match_keras(reduction):
    loss = losses.MeanSquaredError(reduction=reduction)
    weights = [None, np.array([1.0, 3.0]), np.array([[1.0], [3.0]]), 2.0]
    for weight, expected in zip(weights, KERAS_MSE[reduction]):
        assert_close(
            loss(Y_TRUE, Y_PRED, sample_weight=weight), expected, what=f"sample_weight={weight}"
        )


def test_none_reduction_is_the_same_as_the_string():
    loss = losses.MeanSquaredError(reduction=None)
    assert_close(loss(Y_TRUE, Y_PRED, sample_weight=[1.0, 3.0]), KERAS_MSE["none"][1])


def test_ignored_classes_leave_the_mean_as_in_keras():
    y_true = np.array([0, 1, 2, 1])
    y_pred = np.array(
        [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6], [0.3, 0.3, 0.4]], "float32"
    )
    weights = np.array([1.0, 2.0, 3.0, 4.0], "float32")
    expected = {  # reduction -> (unweighted, weighted, weighted by a column)
        "sum_over_batch_size": (0.43375027, 0.9445758),
        "mean": (0.43375027, 0.9445758),
        "sum": (0.86750054, 1.8891516),
        "mean_with_sample_weight": (0.43375027, 0.4722879),
    }
    for reduction, (plain, weighted) in expected.items():
        loss = losses.SparseCategoricalCrossentropy(ignore_class=1, reduction=reduction)
        assert_close(loss(y_true, y_pred), plain, what=reduction)
        assert_close(loss(y_true, y_pred, sample_weight=weights), weighted, what=reduction)
        assert_close(loss(y_true, y_pred, sample_weight=weights[:, None]), weighted, what=reduction)
    loss = losses.SparseCategoricalCrossentropy(ignore_class=1, reduction="none")
    assert_close(loss(y_true, y_pred), [0.35667494, 0.0, 0.5108256, 0.0])


def test_everything_ignored_gives_zero():
    loss = losses.SparseCategoricalCrossentropy(ignore_class=0)
    assert_close(loss(np.zeros(3, "int32"), np.full((3, 4), 0.25, "float32")), 0.0)


def test_circle_mean_counts_rows_with_a_positive_pair_as_in_keras():
    rng = np.random.default_rng(0)
    labels, embeddings = rng.integers(0, 3, 6), rng.standard_normal((6, 4)).astype("float32")
    values = [0.0, 2.761524e-06, 35.193436, 485.11481, 495.78967, 335.63919]
    assert_close(losses.circle(labels, embeddings), values, rtol=1e-4, atol=1e-4)
    assert_close(losses.Circle()(labels, embeddings), 270.34744, rtol=1e-5)
    weights = np.arange(1, 7, dtype="float32")
    assert_close(losses.Circle()(labels, embeddings, sample_weight=weights), 1307.7646, rtol=1e-5)
    mean_weighted = losses.Circle(reduction="mean_with_sample_weight")
    assert_close(mean_weighted(labels, embeddings, sample_weight=weights), 326.94116, rtol=1e-5)


# (per-sample values shape, sample_weight shape, weighted values shape or None for an error)
BROADCASTS = [
    ((2,), (), (2,)),
    ((2,), (2,), (2,)),
    ((2,), (2, 1), (2, 1)),
    ((2,), (1, 1), (2, 1)),
    ((2,), (2, 3), None),
    ((2, 1), (2,), (2, 1)),
    ((2, 1), (2, 3), (2, 3)),
    ((2, 1), (2, 3, 1), (2, 3)),
    ((2, 3), (2,), None),
    ((2, 3), (2, 1), (2, 3)),
    ((2, 3), (2, 3, 1), (2, 3)),
    ((2, 3), (3,), (2, 3)),
    ((2, 3, 1), (2, 3), (2, 3)),
    ((2, 3, 1), (2, 1), (2, 3)),
    ((2, 3, 4), (2, 3), None),
    ((2, 3, 4), (2, 3, 1), (2, 3, 4)),
    ((2, 3, 4), (2, 1, 1), (2, 3, 4)),
    ((2, 3, 4), (1,), (2, 3, 4)),
]


def _identity(y_true, y_pred):
    return y_pred


@pytest.mark.parametrize("values_shape, weight_shape, result_shape", BROADCASTS, ids=str)
def test_sample_weights_broadcast_as_in_keras(values_shape, weight_shape, result_shape):
    values = np.arange(1, 1 + int(np.prod(values_shape)), dtype="float32").reshape(values_shape)
    weight = (
        np.linspace(0.5, 2.0, int(np.prod(weight_shape))).astype("float32").reshape(weight_shape)
    )
    for reduction in ("none", "sum_over_batch_size", "mean_with_sample_weight"):
        loss = losses.LossFunctionWrapper(_identity, reduction=reduction)
        if result_shape is None:
            with pytest.raises(ValueError, match="sample_weight"):
                loss(values, values, sample_weight=weight)
            continue
        expected = R.reduce(values, weight, reduction)
        assert_close(loss(values, values, sample_weight=weight), expected, what=reduction)
        if reduction == "none":
            assert np.shape(expected) == result_shape


def test_function_wrapper_passes_its_options():
    loss = losses.LossFunctionWrapper(losses.huber, delta=0.3, reduction="sum")
    assert_close(loss(*REAL), R.huber(*REAL, delta=0.3).sum())
    assert loss.name == "loss_function_wrapper"
    assert losses.LossFunctionWrapper(losses.huber, name="h").name == "h"


def test_custom_subclass():
    class AbsoluteSum(losses.Loss):
        def call(self, y_true, y_pred):
            return ops.sum(ops.abs(ops.subtract(y_true, y_pred)), axis=-1)

    loss = AbsoluteSum(reduction="sum")
    assert loss.name == "absolute_sum"
    assert_close(loss(*REAL), np.abs(REAL[0] - REAL[1]).sum())
    assert losses.Loss().name == "loss"


def test_structures_are_cast_and_passed_to_call():
    class TwoOutputs(losses.Loss):
        def call(self, y_true, y_pred):
            assert all(ops.dtype(t) == "float32" for t in (y_true["a"], y_pred["a"], y_pred["b"]))
            return ops.add(
                losses.mean_squared_error(y_true["a"], y_pred["a"]), ops.mean(y_pred["b"], axis=-1)
            )

    y_pred = {"a": REAL[1].astype("float64"), "b": np.ones((4, 2), "int32")}
    assert_close(TwoOutputs()({"a": REAL[0]}, y_pred), R.mean_squared_error(*REAL).mean() + 1.0)


def test_loss_dtype():
    y_true, y_pred = (x.astype("float64") for x in REAL)
    assert losses.MeanSquaredError().dtype == "float32"
    assert_close(losses.MeanSquaredError()(y_true, y_pred), R.mean_squared_error(*REAL).mean())
    double = losses.MeanSquaredError(dtype="float64")
    assert double.dtype == "float64"
    assert_close(
        double(*REAL, sample_weight=np.ones(4, "float32")),
        R.mean_squared_error(*REAL).mean(),
        "float64",
        rtol=1e-12,
    )
    assert_close(
        losses.MeanSquaredError()(*REAL, sample_weight=np.ones(4, "float64")),
        R.mean_squared_error(*REAL).mean(),
    )
    assert_close(
        losses.SparseCategoricalCrossentropy(dtype="float16")(*SPARSE),
        R.sparse_categorical_crossentropy(*SPARSE).mean(),
        "float16",
        rtol=1e-2,
        atol=1e-2,
    )
    assert losses.MeanSquaredError(dtype="mixed_float16").dtype == "float16"
    assert_close(
        losses.MeanSquaredError(reduction="none")(*REAL, sample_weight=np.ones(4, "float64")),
        R.mean_squared_error(*REAL),
    )


def test_native_tensors_and_variables_are_accepted():
    y_pred = ops.Variable(REAL[1], trainable=False)
    assert_close(
        losses.MeanAbsoluteError()(native(REAL[0]), y_pred), R.mean_absolute_error(*REAL).mean()
    )


@pytest.mark.parametrize("reduction", ["foo", "auto", 1, ["sum"]], ids=str)
def test_unknown_reduction(reduction):
    with pytest.raises(ValueError, match="reduction"):
        losses.MeanSquaredError(reduction=reduction)


def test_unknown_dtype():
    with pytest.raises((ValueError, TypeError)):
        losses.MeanSquaredError(dtype="float33")


def test_mismatched_shapes():
    with pytest.raises(ValueError, match="mean_squared_error"):
        losses.mean_squared_error(np.zeros((2, 3)), np.zeros((2, 4)))
    with pytest.raises(ValueError, match="mean_squared_error"):
        losses.MeanSquaredError()(np.zeros((2, 3)), np.zeros((2, 4)))
    with pytest.raises(ValueError, match="binary_crossentropy"):
        losses.BinaryCrossentropy()(np.zeros((2, 3)), np.zeros((3, 3)))
    with pytest.raises(ValueError, match="categorical_crossentropy"):
        losses.CategoricalCrossentropy()(np.zeros((2, 3)), np.zeros((2, 4)))
    with pytest.raises(ValueError):
        losses.SparseCategoricalCrossentropy()(np.zeros((2, 3)), np.zeros((2, 4)))
    with pytest.raises(ValueError, match="ctc"):
        losses.CTC()(np.zeros((2, 3)), np.zeros((2, 4)))
    with pytest.raises(ValueError, match="sample_weight"):
        losses.MeanSquaredError()(np.zeros((2, 3)), np.zeros((2, 3)), sample_weight=np.ones(3))


def test_bad_options():
    with pytest.raises(ValueError, match="label_smoothing"):
        losses.BinaryCrossentropy(label_smoothing=1.5)
    with pytest.raises(ValueError, match="label_smoothing"):
        losses.CategoricalFocalCrossentropy(label_smoothing=-0.1)
    for q in (0.0, 1.0, 1.5):
        with pytest.raises(ValueError, match="q"):
            losses.CategoricalGeneralizedCrossEntropy(q=q)
    with pytest.raises(ValueError, match="q"):
        losses.categorical_generalized_cross_entropy(*SPARSE, q=2.0)
    with pytest.raises(ValueError, match="axis"):
        losses.CategoricalCrossentropy(axis=True)
    with pytest.raises(ValueError, match="axis"):
        losses.categorical_crossentropy(*SPARSE, axis=1.0)


def test_the_base_class_needs_call():
    with pytest.raises(NotImplementedError, match="call"):
        losses.Loss()(Y_TRUE, Y_PRED)
