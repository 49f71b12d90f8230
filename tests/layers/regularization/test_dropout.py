"""Dropout and SpatialDropout1D/2D/3D: identity at inference, ~rate zeros in training."""

import numpy as np
import pytest

from tests.layers.harness import TRAINS, random_input, run_layer_test, to_numpy
from tripod import layers

training_only = pytest.mark.skipif(
    not TRAINS, reason="training behaviour is checked on the training backends"
)


def test_dropout_contract():
    run_layer_test(
        layers.Dropout,
        {"rate": 0.5, "seed": 1},
        input_shape=(2, 3),
        expected_output_shape=(2, 3),
        expected_num_seed_generators=1,
        supports_masking=True,
    )
    run_layer_test(layers.Dropout, {"rate": 0.0}, expected_num_seed_generators=0)
    config = layers.Dropout(0.3, noise_shape=(None, 1), seed=4).get_config()
    assert list(config) == ["name", "trainable", "dtype", "rate", "seed", "noise_shape"]
    assert config["noise_shape"] == (None, 1) and config["seed"] == 4


def test_dropout_is_identity_at_inference():
    x = random_input((4, 5))
    layer = layers.Dropout(0.9)
    for training in (None, False):
        np.testing.assert_array_equal(to_numpy(layer(x, training=training)), x)


@training_only
def test_dropout_in_training_zeroes_about_rate_and_rescales():
    x = np.ones((200, 50), "float32")
    out = to_numpy(layers.Dropout(0.3, seed=0)(x, training=True))
    zeros = np.mean(out == 0)
    assert abs(zeros - 0.3) < 0.03
    np.testing.assert_allclose(out[out != 0], 1 / 0.7, rtol=1e-5)


@training_only
def test_dropout_noise_shape_shares_the_mask():
    x = np.ones((8, 5, 6), "float32")
    out = to_numpy(layers.Dropout(0.5, noise_shape=(None, 1, 6), seed=2)(x, training=True))
    assert (out == out[:, :1, :]).all()
    assert 0 < np.mean(out == 0) < 1


@training_only
def test_dropout_seed_generator_advances():
    layer = layers.Dropout(0.5, seed=3)
    x = np.ones((10, 10), "float32")
    first, second = to_numpy(layer(x, training=True)), to_numpy(layer(x, training=True))
    assert not np.array_equal(first, second)


def test_dropout_errors():
    for rate in (-0.1, 1.5, "half"):
        with pytest.raises(ValueError, match="rate"):
            layers.Dropout(rate)


@pytest.mark.parametrize(
    "cls, shape, data_format, shared_axes",
    [
        (layers.SpatialDropout1D, (4, 5, 6), None, (1,)),
        (layers.SpatialDropout2D, (4, 3, 3, 6), "channels_last", (1, 2)),
        (layers.SpatialDropout2D, (4, 6, 3, 3), "channels_first", (2, 3)),
        (layers.SpatialDropout3D, (4, 2, 2, 2, 6), "channels_last", (1, 2, 3)),
        (layers.SpatialDropout3D, (4, 6, 2, 2, 2), "channels_first", (2, 3, 4)),
    ],
)
def test_spatial_dropout(cls, shape, data_format, shared_axes):
    kwargs = {"rate": 0.5, "seed": 1}
    if data_format is not None:
        kwargs["data_format"] = data_format
    run_layer_test(
        cls, kwargs, input_shape=shape, expected_output_shape=shape, expected_num_seed_generators=1
    )
    x = np.ones(shape, "float32")
    layer = cls(**kwargs)
    np.testing.assert_array_equal(to_numpy(layer(x)), x)
    config = layer.get_config()
    expected = ["rate", "seed", "name", "dtype"] + (
        ["data_format"] if cls is not layers.SpatialDropout1D else []
    )
    assert list(config) == expected and config["dtype"] == "float32"
    if TRAINS:
        out = to_numpy(layer(x, training=True))
        first = out[
            tuple(slice(0, 1) if i in shared_axes else slice(None) for i in range(len(shape)))
        ]
        assert (out == first).all(), "whole channels must be kept or dropped"
        assert 0 < np.mean(out == 0) < 1


def test_spatial_dropout_errors():
    with pytest.raises(ValueError, match="ndim=4"):
        layers.SpatialDropout2D(0.5)(np.ones((2, 3, 4), "float32"))
    with pytest.raises(ValueError, match="data_format"):
        layers.SpatialDropout2D(0.5, data_format="channels_middle")
