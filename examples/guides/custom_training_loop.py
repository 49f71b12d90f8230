"""A training loop written from scratch, the same on every backend: `tripod.value_and_grad`
for gradients, `optimizer.apply` for the update, metrics updated and reset by hand.

Run: TRIPOD_BACKEND=tensorflow python examples/guides/custom_training_loop.py
"""

import numpy as np

import tripod as keras
from tripod import layers


def make_data(n, seed=0):
    """Two interleaved classes on a ring: label 1 outside radius 1."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-2, 2, (n, 2)).astype("float32")
    return x, (np.linalg.norm(x, axis=1) > 1.0).astype("float32")[:, None]


def train_step(model, optimizer, loss_fn, accuracy, x, y):
    """One update on the batch (x, y); returns its loss."""

    def loss_and_logits():
        logits = model(x, training=True)
        return loss_fn(y, logits), logits

    (loss, logits), grads = keras.value_and_grad(
        loss_and_logits, model.trainable_variables, has_aux=True
    )()
    optimizer.apply(grads, model.trainable_variables)
    accuracy.update_state(y, logits)
    return float(loss)


def train_epoch(model, optimizer, loss_fn, accuracy, x, y, batch_size):
    """One pass over (x, y) in batches; returns the mean loss."""
    losses = [
        train_step(
            model, optimizer, loss_fn, accuracy, x[i : i + batch_size], y[i : i + batch_size]
        )
        for i in range(0, len(x), batch_size)
    ]
    return float(np.mean(losses))


def main(epochs=25):
    """Return (per-epoch losses, final training accuracy, test accuracy)."""
    keras.utils.set_random_seed(0)
    x, y = make_data(512)
    x_test, y_test = make_data(256, seed=1)
    model = keras.Sequential(
        [keras.Input((2,)), layers.Dense(32, activation="relu"), layers.Dense(1)]
    )
    optimizer = keras.optimizers.Adam(0.02)
    loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
    train_acc = keras.metrics.BinaryAccuracy(threshold=0.0)
    test_acc = keras.metrics.BinaryAccuracy(threshold=0.0)
    history = []
    for _ in range(epochs):
        train_acc.reset_state()
        history.append(train_epoch(model, optimizer, loss_fn, train_acc, x, y, batch_size=64))
    test_acc.update_state(y_test, model(x_test, training=False))
    print(f"{keras.config.backend()}: loss {history[0]:.3f} -> {history[-1]:.3f}, "
          f"train accuracy {float(train_acc.result()):.3f}, test accuracy {float(test_acc.result()):.3f}")  # fmt: skip
    return history, float(train_acc.result()), float(test_acc.result())


if __name__ == "__main__":
    main()
