"""A model's own dtype policy survives `from_config` and `.keras` round trips (issue 14): a
mixed_float16 model reloads mixed_float16, so compiling it again adds loss scaling."""

import numpy as np
import pytest

import tripod as keras
from tripod import layers

X = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], "float32")


def _sequential():
    return keras.Sequential(
        [keras.Input((3,)), layers.Dense(4, activation="relu"), layers.Dense(2)]
    )


def _functional():
    inputs = keras.Input((3,))
    return keras.Model(inputs, layers.Dense(2)(layers.Dense(4, activation="relu")(inputs)))


@pytest.fixture(params=[_sequential, _functional], ids=["sequential", "functional"])
def mixed_model(request):
    """A model (and its layers) made under the mixed_float16 global policy, which is then reset."""
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        return request.param()
    finally:
        keras.mixed_precision.set_global_policy("float32")


def test_config_carries_the_model_policy(mixed_model):
    config = mixed_model.get_config()
    assert config["dtype"]["config"] == {"name": "mixed_float16"}
    restored = type(mixed_model).from_config(config)
    assert restored.dtype_policy.name == "mixed_float16"
    assert [layer.dtype_policy.name for layer in restored.layers if layer.weights] == [
        "mixed_float16"
    ] * 2


def test_keras_file_round_trip_compiles_with_loss_scaling_and_predicts_the_same(
    mixed_model, tmp_path
):
    path = str(tmp_path / "mixed.keras")
    mixed_model.save(path)
    restored = keras.saving.load_model(path)
    assert restored.dtype_policy.name == "mixed_float16"
    restored.compile(optimizer="adam", loss="mse")
    assert isinstance(restored.optimizer, keras.optimizers.LossScaleOptimizer)
    expected = mixed_model.predict(X, verbose=0)
    got = restored.predict(X, verbose=0)
    assert got.dtype == expected.dtype == np.float16
    np.testing.assert_array_equal(got, expected)


def test_a_plain_model_still_reloads_float32():
    restored = keras.Model.from_config(_functional().get_config())
    assert restored.dtype_policy.name == "float32"
