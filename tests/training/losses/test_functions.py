"""Every loss function against its NumPy reference, on backend tensors and NumPy inputs."""

import numpy as np
import pytest

from tests.training.losses import reference as R
from tests.training.losses.cases import BINARY, FUNCTION_CASES, REAL, SPARSE
from tests.training.losses.helpers import assert_close, native
from tripod.training import losses


@pytest.mark.parametrize("case", FUNCTION_CASES, ids=[c[0] for c in FUNCTION_CASES])
def test_function_matches_reference(case):
    name, fn, reference, (y_true, y_pred), options = case
    expected = reference(y_true, y_pred, **options)
    assert_close(fn(native(y_true), native(y_pred), **options), expected, what=name)
    assert_close(fn(y_true, y_pred, **options), expected, what=f"{name} (NumPy inputs)")


def test_functions_keep_the_prediction_dtype():
    y_true, y_pred = (x.astype("float64") for x in REAL)
    assert_close(
        losses.mean_squared_error(y_true, y_pred), R.mean_squared_error(*REAL), "float64", rtol=1e-6
    )
    assert_close(
        losses.mean_squared_error(REAL[0], y_pred),
        R.mean_squared_error(*REAL),
        "float64",
        rtol=1e-6,
    )
    assert_close(losses.mean_squared_error(y_true, REAL[1]), R.mean_squared_error(*REAL), "float32")
    half = losses.binary_crossentropy(BINARY[0], BINARY[1].astype("float16"))
    assert_close(
        half,
        R.binary_crossentropy(BINARY[0], BINARY[1].astype("float16")),
        "float16",
        rtol=1e-2,
        atol=1e-2,
    )


def test_integer_inputs_give_floatx():
    y_true = np.array([[1, 2], [3, 4]], "int32")
    y_pred = np.array([[1, 0], [5, 4]], "int32")
    assert_close(losses.mean_squared_error(y_true, y_pred), [2.0, 2.0])
    assert_close(losses.mean_absolute_error(y_true.tolist(), y_pred.tolist()), [1.0, 1.0])
    assert_close(
        losses.sparse_categorical_crossentropy(*SPARSE), R.sparse_categorical_crossentropy(*SPARSE)
    )


def test_aliases_are_the_functions():
    assert losses.mse is losses.MSE is losses.mean_squared_error
    assert losses.mae is losses.MAE is losses.mean_absolute_error
    assert losses.mape is losses.MAPE is losses.mean_absolute_percentage_error
    assert losses.msle is losses.MSLE is losses.mean_squared_logarithmic_error
    assert losses.kld is losses.KLD is losses.kl_divergence
    assert losses.bce is losses.BCE is losses.binary_crossentropy


def test_dice_and_tversky_of_empty_masks_are_one():
    zeros = np.zeros((2, 3), "float32")
    assert_close(losses.dice(zeros, zeros, axis=1), [1.0, 1.0])
    assert_close(losses.tversky(zeros, zeros, axis=1), [1.0, 1.0])


def test_circle_without_pairs_is_zero():
    embeddings = np.eye(3, 4, dtype="float32")
    assert_close(losses.circle(np.array([0, 1, 2]), embeddings), [0.0, 0.0, 0.0])
    assert_close(losses.circle(np.zeros(3, "int32"), embeddings), [0.0, 0.0, 0.0])
