"""BatchNormalization: batch statistics in training, moving averages at inference."""

import numpy as np
import pytest

import tripod
from tests.layers.harness import TRAINS, random_input, run_layer_test, to_numpy
from tripod import layers
from tripod.backends import active
from tripod.backends.common.derived import hooks as derived_hooks

KERAS_KEYS = [
    "name",
    "trainable",
    "dtype",
    "axis",
    "momentum",
    "epsilon",
    "center",
    "scale",
    "beta_initializer",
    "gamma_initializer",
    "moving_mean_initializer",
    "moving_variance_initializer",
    "beta_regularizer",
    "gamma_regularizer",
    "beta_constraint",
    "gamma_constraint",
    "synchronized",
    "renorm",
    "renorm_clipping",
    "renorm_momentum",
]


def _normalize(x, mean, var, eps=1e-3, gamma=1.0, beta=0.0):
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def test_layer_contract_and_weights():
    run_layer_test(
        layers.BatchNormalization,
        input_shape=(4, 3),
        expected_output_shape=(4, 3),
        expected_num_trainable_weights=2,
        expected_num_non_trainable_weights=2,
        supports_masking=True,
    )
    run_layer_test(
        layers.BatchNormalization,
        {"axis": 1, "center": False, "scale": False},
        input_shape=(2, 3, 4),
        expected_output_shape=(2, 3, 4),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=2,
    )
    layer = layers.BatchNormalization(name="bn")
    layer.build((None, 5))
    assert [v.path for v in layer.weights] == [
        "bn/gamma",
        "bn/beta",
        "bn/moving_mean",
        "bn/moving_variance",
    ]
    assert all(tuple(v.shape) == (5,) for v in layer.weights)
    assert list(layer.get_config()) == KERAS_KEYS


def test_inference_uses_moving_statistics():
    x = random_input((4, 3))
    layer = layers.BatchNormalization()
    layer.build(x.shape)
    mean, var = np.array([0.5, -1.0, 2.0], "float32"), np.array([1.5, 0.5, 4.0], "float32")
    gamma, beta = np.array([2.0, 1.0, 0.5], "float32"), np.array([0.1, 0.2, 0.3], "float32")
    layer.set_weights([gamma, beta, mean, var])
    expected = _normalize(x, mean, var, gamma=gamma, beta=beta)
    for training in (None, False):
        np.testing.assert_allclose(
            to_numpy(layer(x, training=training)), expected, rtol=1e-5, atol=1e-5
        )
    np.testing.assert_array_equal(layer.moving_mean.numpy(), mean)


def test_training_uses_batch_statistics_and_moves_averages():
    x = random_input((6, 2, 3)) * 3 + 1
    layer = layers.BatchNormalization(momentum=0.9)
    out = to_numpy(layer(x, training=True))
    mean, var = x.mean(axis=(0, 1)), x.var(axis=(0, 1))
    np.testing.assert_allclose(out, _normalize(x, mean, var), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(layer.moving_mean.numpy(), 0.1 * mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(layer.moving_variance.numpy(), 0.9 + 0.1 * var, rtol=1e-5, atol=1e-6)
    layer(x, training=True)
    np.testing.assert_allclose(
        layer.moving_mean.numpy(), 0.09 * mean + 0.1 * mean, rtol=1e-5, atol=1e-6
    )


def test_frozen_layer_runs_in_inference_mode():
    x = random_input((4, 3)) + 5
    layer = layers.BatchNormalization()
    layer.trainable = False
    np.testing.assert_allclose(
        to_numpy(layer(x, training=True)), _normalize(x, 0.0, 1.0), rtol=1e-5, atol=1e-5
    )
    np.testing.assert_array_equal(layer.moving_mean.numpy(), np.zeros(3, "float32"))


def test_channels_first_axis():
    x = random_input((3, 2, 4, 4))
    layer = layers.BatchNormalization(axis=1, momentum=0.0)
    out = to_numpy(layer(x, training=True))
    mean, var = x.mean(axis=(0, 2, 3)), x.var(axis=(0, 2, 3))
    np.testing.assert_allclose(
        out, _normalize(x, mean[:, None, None], var[:, None, None]), rtol=1e-4, atol=1e-4
    )
    np.testing.assert_allclose(layer.moving_variance.numpy(), var, rtol=1e-5, atol=1e-5)


def test_mask_excludes_entries_from_statistics():
    x = random_input((2, 4, 3))
    mask = np.array([[True, True, False, False], [True, True, True, False]])
    layer = layers.BatchNormalization(momentum=0.0)
    layer(x, training=True, mask=mask)
    kept = x[mask]
    np.testing.assert_allclose(layer.moving_mean.numpy(), kept.mean(0), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(layer.moving_variance.numpy(), kept.var(0), rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(not TRAINS, reason="the numpy backend does not train")
def test_moving_averages_update_inside_compiled_fit():
    x = random_input((8, 3)) * 2 + 1
    layer = layers.BatchNormalization(momentum=0.5)
    model = tripod.Sequential([tripod.Input((3,)), layer])
    model.compile(optimizer=tripod.optimizers.SGD(0.0), loss="mse")
    model.fit(x, np.zeros_like(x), batch_size=8, epochs=1, verbose=0)
    np.testing.assert_allclose(layer.moving_mean.numpy(), 0.5 * x.mean(0), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(
        layer.moving_variance.numpy(), 0.5 + 0.5 * x.var(0), rtol=1e-5, atol=1e-5
    )


def test_errors():
    with pytest.raises(NotImplementedError, match="renorm"):
        layers.BatchNormalization(renorm=True)
    with pytest.raises(ValueError, match="axis"):
        layers.BatchNormalization(axis=[1, 2])
    with pytest.raises(ValueError, match="momentum"):
        layers.BatchNormalization(momentum=2.0)
    layer = layers.BatchNormalization()
    layer(random_input((2, 3)))
    with pytest.raises(ValueError, match="batch_normalization|expected axis"):
        layer(random_input((2, 4)))
    with pytest.raises(ValueError, match="out of range"):
        layers.BatchNormalization(axis=3)(random_input((2, 3)))


def _bn_training_and_grads(fn, x, scale, offset, axis):
    """fn's (outputs, mean, variance) and the gradients of sum(outputs * weights) for x, scale
    and offset."""
    variables = [tripod.Variable(v) for v in (x, scale, offset)]
    weights = random_input(x.shape, seed=9)

    def loss():
        results = fn(variables[0].value, axis, variables[1].value, variables[2].value, 1e-3)
        return tripod.ops.sum(tripod.ops.multiply(results[0], weights)), results

    (_, results), grads = tripod.value_and_grad(loss, variables, has_aux=True)()
    return [to_numpy(r) for r in results] + [to_numpy(g) for g in grads]


@pytest.mark.skipif(not TRAINS, reason="the numpy backend has no gradients")
@pytest.mark.parametrize(
    "shape, axis",
    [((4, 5, 5, 3), -1), ((3, 4, 6), 1), ((8, 3), -1), ((1, 3), -1)],
    ids=["nhwc", "axis1", "dense", "one_row"],
)
def test_batch_norm_training_hook_equals_the_formula(shape, axis):
    """The backend's batch-norm kernel (torch's, whose float32 variance is about 1e-5 relative
    off a two-pass one, hence rtol 1e-4) against moments + batch_normalization written in ops:
    outputs, statistics and gradients."""
    x = random_input(shape) * 2 + 0.5
    features = shape[axis]
    scale, offset = random_input((features,), seed=1), random_input((features,), seed=2)
    ops = active()
    got = _bn_training_and_grads(ops.batch_norm_training, x, scale, offset, axis)
    want = _bn_training_and_grads(
        lambda *args: derived_hooks.batch_norm_training(ops, *args), x, scale, offset, axis
    )
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4)
