"""GaussianNoise, GaussianDropout, AlphaDropout and ActivityRegularization."""

import numpy as np
import pytest

from tests.layers.harness import TRAINS, random_input, run_layer_test, to_numpy
from tripod import layers

training_only = pytest.mark.skipif(
    not TRAINS, reason="training behaviour is checked on the training backends"
)


@pytest.mark.parametrize(
    "cls, kwargs, keys",
    [
        (layers.GaussianNoise, {"stddev": 0.5, "seed": 1}, ["stddev", "seed"]),
        (layers.GaussianDropout, {"rate": 0.3, "seed": 1}, ["rate", "seed"]),
        (layers.AlphaDropout, {"rate": 0.3, "seed": 1}, ["rate", "seed", "noise_shape"]),
    ],
)
def test_noise_layers_contract_and_inference_identity(cls, kwargs, keys):
    run_layer_test(
        cls,
        kwargs,
        input_shape=(2, 3),
        expected_output_shape=(2, 3),
        expected_num_seed_generators=1,
        supports_masking=True,
    )
    layer = cls(**kwargs)
    assert list(layer.get_config()) == ["name", "trainable", "dtype"] + keys
    x = random_input((3, 4))
    for training in (None, False):
        np.testing.assert_array_equal(to_numpy(layer(x, training=training)), x)


@training_only
def test_gaussian_noise_statistics():
    x = np.full((200, 100), 2.0, "float32")
    out = to_numpy(layers.GaussianNoise(0.5, seed=0)(x, training=True))
    assert abs(out.mean() - 2.0) < 0.02 and abs(out.std() - 0.5) < 0.02


@training_only
def test_gaussian_dropout_statistics():
    x = np.full((200, 100), 2.0, "float32")
    out = to_numpy(layers.GaussianDropout(0.2, seed=0)(x, training=True))
    assert abs(out.mean() - 2.0) < 0.03 and abs(out.std() - 2.0 * np.sqrt(0.2 / 0.8)) < 0.03


@training_only
def test_alpha_dropout_keeps_selu_statistics():
    x = np.random.default_rng(0).standard_normal((400, 100)).astype("float32")
    out = to_numpy(layers.AlphaDropout(0.2, seed=0)(x, training=True))
    assert abs(out.mean()) < 0.03 and abs(out.std() - 1.0) < 0.03
    # Dropped entries all map to one value: a * saturation + b.
    alpha_p = -1.6732632423543772 * 1.0507009873554805
    a = ((1 - 0.2) * (1 + 0.2 * alpha_p**2)) ** -0.5
    dropped = a * alpha_p + (-a * alpha_p * 0.2)
    assert abs(np.mean(np.isclose(out, dropped, atol=1e-6)) - 0.2) < 0.02


def test_noise_errors():
    with pytest.raises(ValueError, match="stddev"):
        layers.GaussianNoise(-1.0)
    with pytest.raises(ValueError, match="rate"):
        layers.GaussianDropout(1.0)
    with pytest.raises(ValueError, match="rate"):
        layers.AlphaDropout(2.0)


def test_activity_regularization_adds_the_penalty():
    run_layer_test(
        layers.ActivityRegularization,
        {"l1": 0.1, "l2": 0.01},
        expected_output_shape=(2, 3),
        supports_masking=True,
    )
    x = random_input((4, 3))
    layer = layers.ActivityRegularization(l1=0.1, l2=0.01)
    np.testing.assert_array_equal(to_numpy(layer(x)), x)
    expected = (0.1 * np.abs(x).sum() + 0.01 * (x**2).sum()) / 4
    assert len(layer.losses) == 1
    np.testing.assert_allclose(float(to_numpy(layer.losses[0])), expected, rtol=1e-5)
    assert list(layer.get_config()) == ["name", "trainable", "dtype", "l1", "l2"]
    with pytest.raises(ValueError, match="l1"):
        layers.ActivityRegularization(l1=-1.0)
