"""Lambda: calling with arguments/mask/training, output shapes, masks, and code serialization
that only loads with safe mode off."""

import numpy as np
import pytest

from tests.layers.harness import random_input, run_layer_test, to_numpy
from tripod import layers, ops
from tripod.layers import activations
from tripod.saving import serialization


@pytest.fixture
def unsafe():
    """Unsafe deserialization for one test, restored afterwards."""
    saved = dict(serialization._safe_mode)
    serialization.enable_unsafe_deserialization()
    yield
    serialization._safe_mode.update(saved)


def scale(x, factor=2.0):
    return ops.multiply(x, factor)


def test_lambda_builtin_function_by_name():
    out = run_layer_test(
        layers.Lambda,
        {"function": activations.relu},
        input_shape=(2, 3),
        expected_output_shape=(2, 3),
    )
    assert out.min() >= 0
    config = layers.Lambda(activations.relu).get_config()
    assert config["function"]["class_name"] == "function" and config["function"]["config"] == "relu"
    assert config["arguments"] == {}
    assert layers.Lambda.from_config(config).function is activations.relu


def test_lambda_arguments_and_values():
    x = random_input((2, 3))
    layer = layers.Lambda(scale, arguments={"factor": 3.0})
    np.testing.assert_allclose(to_numpy(layer(x)), 3.0 * x, rtol=1e-6)


def test_lambda_passes_mask_and_training():
    seen = {}

    def fn(x, mask=None, training=None):
        seen.update(mask=mask, training=training)
        return x

    layer = layers.Lambda(fn)
    layer(np.ones((1, 2), "float32"), mask=np.array([True, False]), training=True)
    assert seen["training"] is True and list(seen["mask"]) == [True, False]


def test_lambda_output_shape_and_mask():
    layer = layers.Lambda(lambda x: ops.concatenate([x, x], axis=-1), output_shape=(6,))
    assert layer.compute_output_shape((None, 3)) == (None, 6)
    assert not layer.supports_masking
    layer = layers.Lambda(lambda x: x, output_shape=lambda s: s, mask=lambda x, m: m)
    assert layer.supports_masking and layer.compute_output_shape((None, 4)) == (None, 4)
    mask = np.array([True, False])
    assert layer.compute_mask(np.ones((2, 2)), mask) is mask
    symbolic = layers.Lambda(lambda x: ops.concatenate([x, x], axis=-1))(layers.Input((3,)))
    assert tuple(symbolic.shape) == (None, 6)


def test_lambda_code_refused_in_safe_mode():
    config = layers.Lambda(lambda x: x * 2).get_config()
    function = config["function"]
    assert function["class_name"] == "__lambda__"
    assert set(function["config"]) == {"code", "defaults", "closure"}
    with pytest.raises(ValueError, match="safe_mode"):
        layers.Lambda.from_config(config)


def test_lambda_code_round_trip_when_unsafe(unsafe):
    offset = 5.0

    def shifted(x, k=2.0):
        return x * k + offset

    layer = layers.Lambda(shifted, output_shape=lambda s: s, mask=lambda x, m: m)
    config = serialization.serialize_keras_object(layer)
    clone = serialization.deserialize_keras_object(config, safe_mode=False)
    x = random_input((2, 3))
    np.testing.assert_allclose(to_numpy(clone(x)), x * 2.0 + 5.0, rtol=1e-6)
    assert clone.compute_output_shape((None, 3)) == (None, 3)
    assert clone.function.__code__.co_code == shifted.__code__.co_code
    assert clone.get_config()["function"]["config"]["closure"] == (5.0,)
