"""`ops.one_hot` on the active backend: float and bool labels are cast to integers (truncated, as
Keras's torch and tensorflow backends do), and bad labels fail with one message everywhere."""

import numpy as np
import pytest

from tripod import ops


def _one_hot(x, num_classes, **kwargs):
    return np.asarray(ops.convert_to_numpy(ops.one_hot(x, num_classes, **kwargs)))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_float_labels_are_cast_to_integers(dtype):
    labels = np.array([0.0, 1.7, 2.0, -0.5, -1.0, 3.0], dtype)
    # 1.7 -> 1 and -0.5 -> 0 (truncation toward zero); -1 and 3 are out of range: zero rows
    expected = np.array(
        [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0], [0, 0, 0], [0, 0, 0]], "float32"
    )
    np.testing.assert_array_equal(_one_hot(labels, 3), expected)


def test_float_tensors_python_floats_and_bools_are_accepted():
    np.testing.assert_array_equal(
        _one_hot(ops.convert_to_tensor(np.array([[2.0], [0.0]], "float32")), 3),
        [[[0, 0, 1]], [[1, 0, 0]]],
    )
    np.testing.assert_array_equal(_one_hot([1.0, 0.0], 2, axis=0), [[0, 1], [1, 0]])
    np.testing.assert_array_equal(_one_hot(np.array([True, False]), 2), [[0, 1], [1, 0]])


def test_integer_labels_are_unchanged():
    out = ops.one_hot(np.array([2, 0], "int64"), 3, dtype="int32")
    assert ops.dtype(out) == "int32"
    np.testing.assert_array_equal(np.asarray(ops.convert_to_numpy(out)), [[0, 0, 1], [1, 0, 0]])


@pytest.mark.parametrize(
    "labels, received",
    [(np.array(["a", "b"]), "str32"), (np.array([1 + 2j], "complex64"), "complex64")],
)
def test_non_numeric_labels_fail_with_one_message_on_every_backend(labels, received):
    message = (
        "ops.one_hot: expected class indices of an integer dtype (float and bool labels are cast "
        f"to int32), received dtype {received}."
    )
    with pytest.raises(TypeError) as error:
        ops.one_hot(labels, 3)
    assert str(error.value) == message
