"""predict and evaluate see every change to the weights: assign, set_weights, fit (also from a
callback while fit's step holds the state) and train_on_batch; checked against a NumPy forward."""

import itertools

import numpy as np
import pytest

import tripod
from tripod.backends import config

pytestmark = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)

X = np.random.default_rng(0).normal(size=(16, 3)).astype("float32")
Y = X.sum(axis=1, keepdims=True)


def _model():
    model = tripod.Sequential(
        [tripod.Input((3,)), tripod.layers.Dense(4, activation="relu"), tripod.layers.Dense(1)]
    )
    model.compile(optimizer="sgd", loss="mse")
    return model


def _forward(weights, x):
    """The model's output computed in NumPy from its weights [k1, b1, k2, b2]."""
    k1, b1, k2, b2 = weights
    return np.maximum(x @ k1 + b1, 0) @ k2 + b2


def _check(model):
    """predict (first: reading the weights would sync the training state) against NumPy."""
    prediction = model.predict(X, batch_size=8, verbose=0)
    expected = _forward(model.get_weights(), X)
    np.testing.assert_allclose(prediction, expected, rtol=1e-5, atol=1e-6)


def test_predict_sees_assign():
    model = _model()
    _check(model)
    kernel = model.layers[0].kernel
    kernel.assign(np.full((3, 4), 0.5, "float32"))
    _check(model)
    model.layers[1].bias.assign_add(np.ones(1, "float32"))
    _check(model)


def test_predict_sees_assign_after_fit():
    # fit's step holds the state now: a NumPy value goes into that state (`write_host`)
    model = _model()
    model.fit(X, Y, epochs=1, batch_size=4, verbose=0)
    _check(model)
    model.layers[0].kernel.assign(np.full((3, 4), 0.25, "float32"))
    _check(model)
    model.layers[1].kernel.assign(model.layers[1].kernel * 2.0)
    _check(model)


def test_predict_sees_set_weights():
    model = _model()
    _check(model)
    model.set_weights([w + 1.0 for w in model.get_weights()])
    _check(model)


def test_predict_and_evaluate_see_fit():
    model = _model()
    _check(model)
    model.evaluate(X, Y, verbose=0)
    for _ in range(2):
        model.fit(X, Y, epochs=2, batch_size=4, verbose=0)
        _check(model)
        loss = model.evaluate(X, Y, verbose=0)
        expected = np.mean((_forward(model.get_weights(), X) - Y) ** 2)
        np.testing.assert_allclose(loss, expected, rtol=1e-4)


class _PredictEachEpoch(tripod.callbacks.Callback):
    """Predicts while fit holds the state (not yet written back to the variables)."""

    def __init__(self):
        super().__init__()
        self.predictions = []

    def on_epoch_end(self, epoch, logs=None):
        self.predictions.append(self.model.predict(X, batch_size=8, verbose=0))


def test_predict_during_fit_sees_the_held_state():
    model = _model()
    _check(model)
    callback = _PredictEachEpoch()
    model.fit(X, Y, epochs=3, batch_size=4, verbose=0, callbacks=[callback])
    predictions = callback.predictions
    for before, after in itertools.pairwise(predictions):
        assert not np.allclose(before, after)  # the weights moved between epochs
    expected = _forward(model.get_weights(), X)
    np.testing.assert_allclose(predictions[-1], expected, rtol=1e-5, atol=1e-6)


def test_predict_sees_train_on_batch():
    model = _model()
    _check(model)
    model.train_on_batch(X, Y)
    _check(model)
