"""ReLU, LeakyReLU, PReLU, ELU, Softmax against NumPy formulas; masks and argument errors."""

import numpy as np
import pytest

from tests.layers.harness import random_input, run_layer_test, to_numpy
from tripod import layers

X = random_input((2, 3, 4)) * 4


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"max_value": 1.5},
        {"negative_slope": 0.1, "threshold": 0.5},
        {"max_value": 2.0, "negative_slope": 0.2},
    ],
)
def test_relu(kwargs):
    out = run_layer_test(
        layers.ReLU, kwargs, input_data=X, expected_output_shape=X.shape, supports_masking=True
    )
    slope, top, thr = (
        kwargs.get("negative_slope", 0.0),
        kwargs.get("max_value"),
        kwargs.get("threshold", 0.0),
    )
    expected = np.where(thr <= X, X, slope * (X - thr))
    if top is not None:
        expected = np.minimum(expected, top)
    np.testing.assert_allclose(out, expected, rtol=1e-6, atol=1e-6)


def test_relu_errors():
    with pytest.raises(ValueError, match="max_value"):
        layers.ReLU(max_value=-1)
    with pytest.raises(ValueError, match="negative_slope"):
        layers.ReLU(negative_slope=-0.5)
    with pytest.raises(ValueError, match="threshold"):
        layers.ReLU(threshold=None)


def test_leaky_relu():
    out = run_layer_test(
        layers.LeakyReLU, input_data=X, expected_output_shape=X.shape, supports_masking=True
    )
    np.testing.assert_allclose(out, np.where(X >= 0, X, 0.3 * X), rtol=1e-6)
    out = to_numpy(layers.LeakyReLU(negative_slope=0.1)(X))
    np.testing.assert_allclose(out, np.where(X >= 0, X, 0.1 * X), rtol=1e-6)
    assert layers.LeakyReLU(alpha=0.2).negative_slope == 0.2
    with pytest.raises(ValueError, match="negative_slope"):
        layers.LeakyReLU(negative_slope=None)


def test_prelu():
    init = {"alpha_initializer": "random_uniform", "shared_axes": [1]}
    run_layer_test(
        layers.PReLU,
        init,
        input_data=X,
        expected_output_shape=X.shape,
        expected_num_trainable_weights=1,
        supports_masking=True,
    )
    layer = layers.PReLU(alpha_initializer="random_uniform", shared_axes=1)
    out = to_numpy(layer(X))
    alpha = layer.alpha.numpy()
    assert layer.alpha.shape == (1, 4) and [v.name for v in layer.weights] == ["alpha"]
    np.testing.assert_allclose(out, np.where(X >= 0, X, alpha * X), rtol=1e-6, atol=1e-7)
    assert layer.get_config()["shared_axes"] == [1]
    with pytest.raises(ValueError, match="expected axis 2"):
        layer(np.ones((2, 3, 5), "float32"))
    assert layers.PReLU()(X).shape == X.shape  # the default: one zero alpha per position
    with pytest.raises(ValueError, match="shared_axes"):
        layers.PReLU(shared_axes=[3])(X)


def test_elu():
    out = run_layer_test(
        layers.ELU,
        {"alpha": 0.5},
        input_data=X,
        expected_output_shape=X.shape,
        supports_masking=True,
    )
    np.testing.assert_allclose(out, np.where(X > 0, X, 0.5 * (np.exp(X) - 1)), rtol=1e-5, atol=1e-6)


def test_softmax_axes():
    out = run_layer_test(
        layers.Softmax, input_data=X, expected_output_shape=X.shape, supports_masking=True
    )
    np.testing.assert_allclose(out, np_softmax(X), rtol=1e-5, atol=1e-6)
    out = to_numpy(layers.Softmax(axis=1)(X))
    np.testing.assert_allclose(out, np_softmax(X, axis=1), rtol=1e-5, atol=1e-6)
    out = to_numpy(layers.Softmax(axis=(1, 2))(X))
    np.testing.assert_allclose(
        out, np_softmax(X.reshape(2, -1)).reshape(X.shape), rtol=1e-5, atol=1e-6
    )


def test_softmax_mask():
    x = np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]], "float32")
    mask = np.array([[True, False, True], [False, False, False]])
    out = to_numpy(layers.Softmax()(x, mask=mask))
    expected = np.zeros_like(x)
    expected[0, [0, 2]] = np_softmax(x[0, [0, 2]])
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-7)
