"""LayerNormalization, RMSNormalization, UnitNormalization and GroupNormalization."""

import numpy as np
import pytest

from tests.layers.harness import random_input, run_layer_test, to_numpy
from tripod import layers


def _layer_norm(x, axes, eps=1e-3):
    mean = x.mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=axes, keepdims=True) + eps)


def test_layer_normalization_contract():
    out = run_layer_test(
        layers.LayerNormalization,
        input_shape=(2, 5),
        expected_output_shape=(2, 5),
        expected_num_trainable_weights=2,
        supports_masking=True,
    )
    x = random_input((2, 5))
    layer = layers.LayerNormalization(name="ln")
    np.testing.assert_allclose(to_numpy(layer(x)), _layer_norm(x, -1), rtol=1e-5, atol=1e-5)
    assert out.shape == (2, 5)
    assert [(v.path, v.shape) for v in layer.weights] == [("ln/gamma", (5,)), ("ln/beta", (5,))]
    assert list(layer.get_config()) == [
        "name",
        "trainable",
        "dtype",
        "axis",
        "epsilon",
        "center",
        "scale",
        "rms_scaling",
        "beta_initializer",
        "gamma_initializer",
        "beta_regularizer",
        "gamma_regularizer",
        "beta_constraint",
        "gamma_constraint",
    ]
    assert layer.get_config()["axis"] == [-1]


def test_layer_normalization_several_axes_with_weights():
    x = random_input((2, 3, 4))
    layer = layers.LayerNormalization(axis=[1, 2], epsilon=1e-5)
    layer.build(x.shape)
    gamma, beta = random_input((3, 4), seed=1), random_input((3, 4), seed=2)
    layer.set_weights([gamma, beta])
    np.testing.assert_allclose(
        to_numpy(layer(x)), _layer_norm(x, (1, 2), 1e-5) * gamma + beta, rtol=1e-4, atol=1e-4
    )
    # A non-trailing axis: the weights broadcast along it.
    layer = layers.LayerNormalization(axis=1)
    layer.build(x.shape)
    gamma = random_input((3,), seed=3)
    layer.set_weights([gamma, np.zeros(3, "float32")])
    np.testing.assert_allclose(
        to_numpy(layer(x)), _layer_norm(x, 1) * gamma[:, None], rtol=1e-4, atol=1e-4
    )


def test_layer_normalization_rms_scaling_and_no_center():
    x = random_input((2, 4))
    layer = layers.LayerNormalization(rms_scaling=True)
    expected = x / np.sqrt(x.var(-1, keepdims=True) + 1e-3)
    np.testing.assert_allclose(to_numpy(layer(x)), expected, rtol=1e-5, atol=1e-5)
    assert [v.name for v in layer.weights] == ["gamma"] and layer.get_config()[
        "rms_scaling"
    ] is True
    run_layer_test(
        layers.LayerNormalization,
        {"center": False},
        input_shape=(2, 4),
        expected_num_trainable_weights=1,
    )
    with pytest.raises(ValueError, match="axis"):
        layers.LayerNormalization(axis="last")


def test_rms_normalization():
    run_layer_test(
        layers.RMSNormalization,
        input_shape=(2, 3, 4),
        expected_output_shape=(2, 3, 4),
        expected_num_trainable_weights=1,
    )
    x = random_input((2, 3, 4))
    layer = layers.RMSNormalization(axis=[1, 2], name="rms")
    layer.build(x.shape)
    scale = random_input((3, 4), seed=5)
    layer.set_weights([scale])
    expected = x / np.sqrt((x**2).mean(axis=(1, 2), keepdims=True) + 1e-6) * scale
    np.testing.assert_allclose(to_numpy(layer(x)), expected, rtol=1e-5, atol=1e-5)
    assert [(v.path, v.shape) for v in layer.weights] == [("rms/scale", (3, 4))]
    assert layer.get_config()["axis"] == [1, 2] and layer.get_config()["epsilon"] == 1e-6


def test_unit_normalization():
    run_layer_test(
        layers.UnitNormalization,
        input_shape=(2, 3),
        expected_output_shape=(2, 3),
        supports_masking=True,
    )
    x = random_input((2, 3, 4))
    np.testing.assert_allclose(
        to_numpy(layers.UnitNormalization(axis=[1, 2])(x)),
        x / np.sqrt((x**2).sum(axis=(1, 2), keepdims=True)),
        rtol=1e-5,
        atol=1e-6,
    )
    np.testing.assert_array_equal(
        to_numpy(layers.UnitNormalization()(np.zeros((1, 3), "float32"))), np.zeros((1, 3))
    )
    assert layers.UnitNormalization().get_config()["axis"] == -1


def _group_norm(x, groups, axis, eps=1e-3):
    moved = np.moveaxis(x, axis, -1)
    grouped = moved.reshape(moved.shape[:-1] + (groups, -1))
    axes = tuple(range(1, grouped.ndim - 2)) + (grouped.ndim - 1,)
    mean = grouped.mean(axis=axes, keepdims=True)
    var = grouped.var(axis=axes, keepdims=True)
    return np.moveaxis(((grouped - mean) / np.sqrt(var + eps)).reshape(moved.shape), -1, axis)


def test_group_normalization():
    run_layer_test(
        layers.GroupNormalization,
        {"groups": 2},
        input_shape=(2, 3, 4),
        expected_output_shape=(2, 3, 4),
        expected_num_trainable_weights=2,
        supports_masking=True,
    )
    x = random_input((2, 3, 6))
    np.testing.assert_allclose(
        to_numpy(layers.GroupNormalization(groups=3)(x)),
        _group_norm(x, 3, -1),
        rtol=1e-4,
        atol=1e-4,
    )
    x = random_input((2, 4, 3, 3))
    np.testing.assert_allclose(
        to_numpy(layers.GroupNormalization(groups=2, axis=1)(x)),
        _group_norm(x, 2, 1),
        rtol=1e-4,
        atol=1e-4,
    )
    layer = layers.GroupNormalization(groups=4, name="gn")
    layer.build((None, 5, 8))
    assert [(v.path, v.shape) for v in layer.weights] == [("gn/gamma", (8,)), ("gn/beta", (8,))]
    with pytest.raises(ValueError, match="multiple of groups"):
        layers.GroupNormalization(groups=3)(random_input((2, 4)))
    with pytest.raises(ValueError, match="groups"):
        layers.GroupNormalization(groups=0)
