"""A tiny regression model, its data, and callbacks that script the logged values."""

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


def linear_model(lr=0.05, cls=None, optimizer=None, **compile_kwargs):
    """A compiled, built Dense(1) model (of class `cls`, Sequential by default)."""
    keras.utils.set_random_seed(1)
    cls = cls or keras.Sequential
    model = cls([keras.Input((4,)), layers.Dense(1)])
    model.compile(optimizer=optimizer or keras.optimizers.SGD(lr), loss="mse", **compile_kwargs)
    return model


class ScriptedLogs(keras.callbacks.Callback):
    """Puts `values[epoch]` into the epoch logs as `key` (place it before the callback under test)."""

    def __init__(self, key, values):
        super().__init__()
        self.key = key
        self.values = values

    def on_epoch_end(self, epoch, logs=None):
        logs[self.key] = self.values[epoch]


class WeightsPerEpoch(keras.callbacks.Callback):
    """Records the model's weights at the end of each epoch."""

    def __init__(self):
        super().__init__()
        self.weights = []

    def on_epoch_end(self, epoch, logs=None):
        self.weights.append([np.array(w) for w in self.model.get_weights()])


class RecordingModel(keras.Sequential):
    """A test double for the saving methods: records each call, keeps weights in an .npz file."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.calls = []

    def save_weights(self, filepath, overwrite=True, max_shard_size=None):
        self.calls.append(("save_weights", filepath))
        with open(filepath, "wb") as f:
            np.savez(f, *self.get_weights())

    def save(self, filepath, overwrite=True, zipped=None, **kwargs):
        self.calls.append(("save", filepath))
        with open(filepath, "wb") as f:
            np.savez(f, *self.get_weights())

    def load_weights(self, filepath, skip_mismatch=False, **kwargs):
        self.calls.append(("load_weights", filepath))
        with np.load(filepath) as data:
            self.set_weights([data[f"arr_{i}"] for i in range(len(data.files))])


def assert_weights_equal(actual, expected):
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        np.testing.assert_allclose(np.asarray(a), np.asarray(e), rtol=0, atol=0)
