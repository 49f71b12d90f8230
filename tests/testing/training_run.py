"""Train an MLP and a small CNN with Adam on the active backend; print losses and weights.

`TRIPOD_BACKEND=jax python -m tests.testing.training_run STEPS...` prints one JSON object:
model -> {"losses": the loss at each step, "weights": {steps: every weight after that many}}.
Each step is one full-batch epoch with a fixed seed, so backends differ only in arithmetic.
"""

import json
import sys

import numpy as np

import tripod
from tripod import layers


def mlp():
    """The quickstart's model: Dense(32, relu) -> Dense(1), MSE on a noisy linear target."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 10)).astype("float32")
    y = (x @ rng.standard_normal((10, 1)) + 0.1 * rng.standard_normal((64, 1))).astype("float32")
    model = tripod.Sequential(
        [tripod.Input((10,)), layers.Dense(32, activation="relu"), layers.Dense(1)]
    )
    return model, "mse", x, y


def cnn():
    """Conv2D -> MaxPooling2D -> Dense softmax over 3 classes of 8x8 images."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((32, 8, 8, 1)).astype("float32")
    y = rng.integers(0, 3, 32).astype("int32")
    model = tripod.Sequential(
        [
            tripod.Input((8, 8, 1)),
            layers.Conv2D(4, 3, activation="relu"),
            layers.MaxPooling2D(),
            layers.Flatten(),
            layers.Dense(3, activation="softmax"),
        ]
    )
    return model, "sparse_categorical_crossentropy", x, y


def train(build, steps):
    """Losses per step and weights after each of `steps` (ascending) steps of Adam(0.01)."""
    tripod.utils.set_random_seed(7)
    model, loss, x, y = build()
    model.compile(optimizer=tripod.optimizers.Adam(0.01), loss=loss)
    losses, weights, done = [], {}, 0
    for stop in steps:
        history = model.fit(
            x, y, batch_size=len(x), epochs=stop, initial_epoch=done, shuffle=False, verbose=0
        )
        losses += history.history["loss"]
        weights[stop] = [np.asarray(w.numpy()).tolist() for w in model.weights]
        done = stop
    return {"losses": losses, "weights": weights}


if __name__ == "__main__":
    steps = sorted(int(s) for s in sys.argv[1:])
    print(json.dumps({"mlp": train(mlp, steps), "cnn": train(cnn, steps)}))
