"""keras.utils data helpers against hand-computed values."""

import numpy as np

import tripod as keras


def test_to_categorical():
    np.testing.assert_array_equal(keras.utils.to_categorical([0, 2, 1]), np.eye(3)[[0, 2, 1]])
    assert keras.utils.to_categorical([[1], [0]], num_classes=4).shape == (2, 4)


def test_normalize():
    np.testing.assert_allclose(
        keras.utils.normalize(np.array([[3.0, 4.0], [0.0, 0.0]])), [[0.6, 0.8], [0, 0]]
    )


def test_pad_sequences():
    out = keras.utils.pad_sequences([[1, 2, 3], [4]], maxlen=2)
    np.testing.assert_array_equal(out, [[2, 3], [0, 4]])
    out = keras.utils.pad_sequences([[1, 2, 3], [4]], padding="post", truncating="post", value=9)
    np.testing.assert_array_equal(out, [[1, 2, 3], [4, 9, 9]])


def test_get_source_inputs():
    a, b = keras.Input((2,)), keras.Input((2,))
    out = keras.layers.Dense(1)(a)
    assert keras.utils.get_source_inputs(out) == [a]
    assert b not in keras.utils.get_source_inputs(out)
