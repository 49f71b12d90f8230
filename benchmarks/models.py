"""The benchmark problems' models, built with tripod."""

import tripod as keras
from tripod import layers


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
