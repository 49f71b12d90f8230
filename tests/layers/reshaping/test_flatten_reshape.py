"""Flatten, Reshape, Permute and RepeatVector against NumPy."""

import numpy as np
import pytest

from tests.layers.harness import random_input, run_layer_test, to_numpy
from tripod import layers

X = random_input((2, 3, 4, 5))


def test_flatten():
    out = run_layer_test(layers.Flatten, input_data=X, expected_output_shape=(2, 60))
    np.testing.assert_array_equal(out, X.reshape(2, -1))
    out = to_numpy(layers.Flatten(data_format="channels_first")(X))
    np.testing.assert_array_equal(out, np.moveaxis(X, 1, -1).reshape(2, -1))
    assert tuple(layers.Flatten()(np.ones((2,), "float32")).shape) == (2, 1)
    assert layers.Flatten().compute_output_shape((None, 3, None)) == (None, None)
    assert layers.Flatten().get_config()["data_format"] == "channels_last"
    with pytest.raises(ValueError, match="data_format"):
        layers.Flatten(data_format="channels_middle")


def test_reshape():
    out = run_layer_test(
        layers.Reshape, {"target_shape": (4, -1)}, input_data=X, expected_output_shape=(2, 4, 15)
    )
    np.testing.assert_array_equal(out, X.reshape(2, 4, 15))
    out = to_numpy(layers.Reshape((60,))(X))
    np.testing.assert_array_equal(out, X.reshape(2, 60))
    assert layers.Reshape((-1, 2)).compute_output_shape((None, 3, 4)) == (None, 6, 2)
    assert layers.Reshape((-1, 2)).compute_output_shape((None, None, 4)) == (None, None, 2)
    with pytest.raises(ValueError, match="at most one unknown"):
        layers.Reshape((2, -1, -1))
    with pytest.raises(ValueError, match="total size"):
        layers.Reshape((7,))(X)
    with pytest.raises(ValueError, match="target_shape"):
        layers.Reshape((0, 2))


def test_permute():
    out = run_layer_test(
        layers.Permute, {"dims": (3, 1, 2)}, input_data=X, expected_output_shape=(2, 5, 3, 4)
    )
    np.testing.assert_array_equal(out, np.transpose(X, (0, 3, 1, 2)))
    assert layers.Permute((2, 1)).get_config()["dims"] == (2, 1)
    with pytest.raises(ValueError, match="permutation"):
        layers.Permute((1, 3))
    with pytest.raises(ValueError, match="expected ndim=3"):
        layers.Permute((2, 1))(X)


def test_repeat_vector():
    x = random_input((2, 3))
    out = run_layer_test(
        layers.RepeatVector, {"n": 4}, input_data=x, expected_output_shape=(2, 4, 3)
    )
    np.testing.assert_array_equal(out, np.repeat(x[:, None, :], 4, axis=1))
    with pytest.raises(ValueError, match="expected ndim=2"):
        layers.RepeatVector(2)(X)
    with pytest.raises(ValueError, match="n must"):
        layers.RepeatVector(1.5)
