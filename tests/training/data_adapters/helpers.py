"""A tiny model and data set: each batch source must train exactly as the same arrays do."""

import numpy as np
import pytest

import tripod as keras
from tripod import layers
from tripod.backends import config

needs_training = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)

rng = np.random.default_rng(0)
X = rng.standard_normal((32, 4)).astype("float32")
Y = (X @ rng.standard_normal((4, 1))).astype("float32")
SW = rng.uniform(0.5, 1.5, (32,)).astype("float32")
BATCH = 8


def model():
    keras.utils.set_random_seed(1)
    m = keras.Sequential([keras.Input((4,)), layers.Dense(1)])
    m.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    return m


def batches(*arrays, batch_size=BATCH):
    """The arrays cut into consecutive batches, as tuples."""
    return [
        tuple(a[i : i + batch_size] for a in arrays) for i in range(0, len(arrays[0]), batch_size)
    ]


def reference_fit(epochs=2, sample_weight=None):
    """Weights and history after fitting the arrays themselves, unshuffled."""
    m = model()
    history = m.fit(
        X, Y, sample_weight=sample_weight, batch_size=BATCH, epochs=epochs, shuffle=False, verbose=0
    )
    return m.get_weights(), history.history


def assert_same_training(m, history, epochs=2, sample_weight=None):
    weights, reference = reference_fit(epochs, sample_weight)
    for a, b in zip(m.get_weights(), weights):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    for key, values in reference.items():
        np.testing.assert_allclose(history.history[key], values, rtol=1e-5)
