"""A functional model adds or drops a trailing axis of size 1 to match its `Input`'s rank."""

import numpy as np
import pytest

import tripod as keras
from tripod import layers
from tripod.backends import config

needs_training = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)


def summing_model(shape):
    """Sums the last axis (a Dense of ones): its kernel is built for the `Input`'s last axis."""
    inputs = keras.Input(shape)
    return keras.Model(inputs, layers.Dense(1, kernel_initializer="ones", use_bias=False)(inputs))


def test_a_missing_trailing_axis_of_size_one_is_added():
    images = np.arange(2 * 3 * 3, dtype="float32").reshape(2, 3, 3)  # MNIST-style, no channel axis
    out = summing_model((3, 3, 1)).predict(images, verbose=0)
    np.testing.assert_array_equal(out, images[..., None])


def test_an_extra_trailing_axis_of_size_one_is_dropped():
    column = np.arange(6, dtype="float32").reshape(2, 3, 1)
    out = summing_model((3,)).predict(column, verbose=0)
    np.testing.assert_array_equal(out, column.sum(axis=1))


def test_other_rank_mismatches_name_both_shapes():
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(None, 3, 3, 1\)"):
        summing_model((3, 3, 1))(np.zeros((2, 3), "float32"))


@needs_training
def test_a_conv_model_trains_on_images_without_a_channel_axis():
    keras.utils.set_random_seed(0)
    inputs = keras.Input((8, 8, 1))
    x = layers.Conv2D(2, 3)(inputs)
    model = keras.Model(inputs, layers.Dense(1)(layers.Flatten()(x)))
    model.compile("adam", "mse")
    images = np.random.default_rng(0).random((16, 8, 8)).astype("float32")
    history = model.fit(images, images.mean(axis=(1, 2))[:, None], epochs=2, verbose=0)
    assert np.isfinite(history.history["loss"]).all()
