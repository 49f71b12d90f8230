"""The benchmark problems: data, and the same models built with tripod."""

import numpy as np

import tripod as keras
from tripod import layers

PROBLEMS = {
    # name: (input shape, output units, batch size, samples, epochs timed)
    "tutorial_mlp": ((10,), 1, 1000, 1000, 100),
    "mnist_mlp": ((784,), 10, 128, 2560, 3),
    "small_cnn": ((28, 28, 1), 10, 128, 1280, 2),
}


def data(name):
    """Fixed synthetic data for a problem: (x, y) NumPy arrays."""
    shape, units, _, samples, _ = PROBLEMS[name]
    rng = np.random.default_rng(0)
    x = rng.standard_normal((samples,) + shape).astype("float32")
    if units == 1:
        w = rng.standard_normal((shape[0], 1)).astype("float32")
        return x, (x @ w + 0.1 * rng.standard_normal((samples, 1))).astype("float32")
    return x, rng.integers(0, units, samples).astype("int32")


def tripod_model(name):
    """The problem's model and compile arguments, in tripod."""
    if name == "tutorial_mlp":
        model = keras.Sequential([keras.Input((10,)), layers.Dense(32, activation="relu"), layers.Dense(1)])
        return model, dict(optimizer=keras.optimizers.Adam(0.01), loss="mse")
    if name == "mnist_mlp":
        model = keras.Sequential([
            keras.Input((784,)), layers.Dense(256, activation="relu"),
            layers.Dense(256, activation="relu"), layers.Dense(10),
        ])  # fmt: skip
    else:
        model = keras.Sequential([
            keras.Input((28, 28, 1)), layers.Conv2D(32, 3, activation="relu"), layers.MaxPooling2D(),
            layers.Conv2D(64, 3, activation="relu"), layers.MaxPooling2D(), layers.Flatten(), layers.Dense(10),
        ])  # fmt: skip
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    return model, dict(optimizer=keras.optimizers.Adam(0.001), loss=loss)
