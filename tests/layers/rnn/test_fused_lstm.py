"""LSTM through the backend's fused kernel (`ops.lstm_sequence`, torch) against the same cell
scanned step by step (`RNN(LSTMCell)`): outputs, states and gradients."""

import numpy as np
import pytest

import tripod
from tests.layers.harness import random_input, to_numpy
from tripod import layers
from tripod.backends import active, config

ops = active()

X = random_input((3, 6, 4), seed=2)
H0, C0 = random_input((3, 5), seed=3), random_input((3, 5), seed=4)


def _pair(**kwargs):
    """An LSTM layer and an RNN over an LSTMCell with the same random weights."""
    fused = layers.LSTM(5, return_sequences=True, return_state=True, **kwargs)
    scanned = layers.RNN(
        layers.LSTMCell(5, use_bias=kwargs.get("use_bias", True)),
        return_sequences=True,
        return_state=True,
        go_backwards=kwargs.get("go_backwards", False),
    )
    fused.build((None, 6, 4))
    scanned.build((None, 6, 4))
    rng = np.random.default_rng(0)
    weights = [rng.standard_normal(w.shape).astype("float32") * 0.5 for w in fused.weights]
    fused.set_weights(weights)
    scanned.set_weights(weights)
    return fused, scanned


def _loss_and_grads(layer, x, h0, c0):
    """sum of squares of the outputs and final states, and its gradients for the weights and the
    input and initial-state variables."""
    inputs = [ops.Variable(v) for v in (x, h0, c0)]

    def loss():
        outputs, h, c = layer(inputs[0].value, initial_state=[inputs[1].value, inputs[2].value])
        return ops.add(ops.sum(ops.square(outputs)), ops.add(ops.sum(ops.square(h)), ops.sum(c)))

    value, grads = tripod.value_and_grad(loss, layer.trainable_weights + inputs)()
    return to_numpy(value), [to_numpy(g) for g in grads]


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"go_backwards": True}, {"use_bias": False}],
    ids=["plain", "backwards", "no_bias"],
)
def test_fused_lstm_equals_the_scanned_cell(kwargs):
    fused, scanned = _pair(**kwargs)
    for got, want in zip(fused(X, initial_state=[H0, C0]), scanned(X, initial_state=[H0, C0])):
        np.testing.assert_allclose(to_numpy(got), to_numpy(want), rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(config.backend() == "numpy", reason="the numpy backend has no gradients")
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"go_backwards": True}, {"use_bias": False}],
    ids=["plain", "backwards", "no_bias"],
)
def test_fused_lstm_gradients_equal_the_scanned_cell(kwargs):
    fused, scanned = _pair(**kwargs)
    value, grads = _loss_and_grads(fused, X, H0, C0)
    want_value, want_grads = _loss_and_grads(scanned, X, H0, C0)
    np.testing.assert_allclose(value, want_value, rtol=1e-5)
    assert len(grads) == len(want_grads) == len(fused.trainable_weights) + 3
    for got, want in zip(grads, want_grads):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
