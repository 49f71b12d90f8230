"""Activation, Identity, Masking and Wrapper."""

import numpy as np
import pytest

import tripod
from tests import accelerator
from tests.layers.harness import random_input, run_layer_test, to_numpy
from tripod import layers
from tripod.saving import serialization


def test_activation():
    x = random_input((2, 3))
    out = run_layer_test(
        layers.Activation,
        {"activation": "relu"},
        input_data=x,
        expected_output_shape=(2, 3),
        supports_masking=True,
    )
    np.testing.assert_allclose(out, np.maximum(x, 0))
    out = to_numpy(layers.Activation("tanh")(x))
    np.testing.assert_allclose(out, np.tanh(x), rtol=accelerator.floor(1e-5), atol=1e-6)
    assert layers.Activation("relu").get_config()["activation"] == "relu"
    with pytest.raises(ValueError, match="Unknown activation"):
        layers.Activation("nope")


def test_identity():
    x = random_input((2, 3))
    out = run_layer_test(
        layers.Identity, input_data=x, expected_output_shape=(2, 3), supports_masking=True
    )
    np.testing.assert_array_equal(out, x)
    pair = layers.Identity()([x, 2 * x])
    np.testing.assert_array_equal(to_numpy(pair[1]), 2 * x)


def test_masking_zeroes_and_masks_timesteps():
    x = random_input((2, 4, 3))
    x[0, 1] = 0.0
    x[1, 3] = 0.0
    out = run_layer_test(
        layers.Masking, input_data=x, expected_output_shape=(2, 4, 3), supports_masking=True
    )
    np.testing.assert_array_equal(out, x)
    layer = layers.Masking(mask_value=1.0)
    x = np.array([[[1.0, 1.0], [1.0, 2.0], [3.0, 4.0]]], "float32")
    np.testing.assert_array_equal(to_numpy(layer(x)), [[[0, 0], [1, 2], [3, 4]]])
    np.testing.assert_array_equal(to_numpy(layer.compute_mask(x)), [[False, True, True]])
    symbolic = layer(layers.Input((3, 2)))
    assert tuple(symbolic._keras_mask.shape) == (None, 3)
    assert layer.get_config()["mask_value"] == 1.0


class Twice(layers.Wrapper):
    """A wrapper that applies its layer twice (for the tests)."""

    def call(self, inputs):
        return self.layer(self.layer(inputs))


def test_wrapper_builds_tracks_and_serializes():
    inner = layers.Dense(3)
    run_layer_test(
        Twice,
        {"layer": inner},
        input_shape=(2, 3),
        expected_output_shape=(2, 3),
        expected_num_trainable_weights=2,
    )
    wrapper = Twice(layers.Dense(3, name="inner"))
    wrapper(np.ones((1, 3), "float32"))
    assert wrapper.layer.built and [v.path for v in wrapper.weights] == [
        f"{wrapper.name}/inner/kernel",
        f"{wrapper.name}/inner/bias",
    ]
    config = wrapper.get_config()
    assert config["layer"]["class_name"] == "Dense"
    clone = Twice.from_config(config)
    assert isinstance(clone.layer, layers.Dense) and clone.layer.units == 3
    assert (
        serialization.serialize_keras_object(wrapper)["config"]["layer"]["config"]["name"]
        == "inner"
    )
    with pytest.raises(TypeError, match="Layer instance"):
        Twice("dense")


def test_input_layer_takes_an_existing_symbolic_tensor():
    """`InputLayer(input_tensor=t)` (and `Input(tensor=t)`) adopts `t`; a symbolic tensor has
    no truth value, so it must not be tested for one."""
    source = tripod.Input((3,), name="source")
    layer = tripod.layers.InputLayer(input_tensor=source)
    assert layer.output is source
    assert tripod.Input(tensor=source) is source
