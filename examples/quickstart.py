"""Quickstart: fit a small regression model on whichever backend is active.

X is 1000x10, y = X·w + noise; the model is Dense(32, relu) -> Dense(1), trained with Adam(0.01)
on the mean squared error for 200 full-batch epochs.

Run: python examples/quickstart.py   (pick the backend with TRIPOD_BACKEND=jax|torch|tensorflow)
"""

import numpy as np

import tripod as keras
from tripod import layers


def main(epochs=200):
    backend = keras.config.backend()
    print(f"tripod {keras.__version__} on the {backend} backend")
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    X = rng.standard_normal((1000, 10)).astype("float32")
    w = rng.standard_normal((10, 1)).astype("float32")
    y = X @ w + 0.1 * rng.standard_normal((1000, 1)).astype("float32")

    model = keras.Sequential(
        [keras.Input((10,)), layers.Dense(32, activation="relu"), layers.Dense(1)]
    )
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
    model.summary()
    if backend == "numpy":
        print("the numpy backend is inference-only: evaluating the untrained model instead")
        print(f"loss: {model.evaluate(X, y, verbose=0):.4f}")
        return None
    history = model.fit(X, y, batch_size=len(X), epochs=epochs, verbose=0)
    losses = history.history["loss"]
    for epoch in list(range(0, epochs, max(1, epochs // 5))) + [epochs - 1]:
        print(f"epoch {epoch + 1:4d}: loss {losses[epoch]:.4f}")
    return losses


if __name__ == "__main__":
    main()
