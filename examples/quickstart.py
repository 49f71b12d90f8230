"""Quickstart: a small functional model and a few ops, on whichever backend is active.

Run with `python examples/quickstart.py`; pick the backend with TRIPOD_BACKEND=jax|torch|tensorflow|numpy.
"""

import numpy as np

import tripod as keras
from tripod import layers, ops


def main():
    print(f"tripod {keras.__version__} on the {keras.config.backend()} backend")

    rng = np.random.default_rng(0)
    X = rng.standard_normal((1000, 10)).astype("float32")
    w = rng.standard_normal((10, 1)).astype("float32")
    y = X @ w + 0.1 * rng.standard_normal((1000, 1)).astype("float32")

    inputs = keras.Input((10,))
    hidden = layers.Dense(32, activation="relu")(inputs)
    model = keras.Model(inputs, layers.Dense(1)(hidden))
    model.summary()

    predictions = ops.convert_to_numpy(model(X))
    mse = float(np.mean((predictions - y) ** 2))
    print(f"untrained model: mean squared error {mse:.4f} on {len(X)} samples")

    logits = ops.convert_to_tensor([[1.0, 2.0, 3.0]])
    print("softmax:", ops.convert_to_numpy(ops.softmax(logits)).round(4).tolist())
    print("int8 + 3 ->", ops.dtype(ops.add(np.ones(2, "int8"), 3)), "(the same dtype on every backend)")


if __name__ == "__main__":
    main()
