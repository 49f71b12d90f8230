"""Training with the built-in methods: a custom loss and metric, validation, sample and class
weights, a `PyDataset`, and `EarlyStopping`.

Run: TRIPOD_BACKEND=tensorflow python examples/guides/training_builtin.py
"""

import math

import numpy as np

import tripod as keras
from tripod import layers, ops


class FocalishLoss(keras.losses.Loss):
    """Sparse cross-entropy scaled by `(1 - p_true) ** gamma`, a small focal loss."""

    def __init__(self, gamma=1.0, name="focalish"):
        super().__init__(name=name)
        self.gamma = gamma

    def call(self, y_true, y_pred):
        labels = ops.cast(ops.reshape(y_true, (-1,)), "int32")
        p_true = ops.sum(y_pred * ops.one_hot(labels, ops.shape(y_pred)[-1]), axis=-1)
        return -((1.0 - p_true) ** self.gamma) * ops.log(p_true + 1e-7)


class HitRate(keras.metrics.Metric):
    """The fraction of samples whose arg-max class is the label (weighted)."""

    def __init__(self, name="hit_rate", **kwargs):
        super().__init__(name=name, **kwargs)
        self.hits = self.add_variable(shape=(), initializer="zeros", name="hits")
        self.total = self.add_variable(shape=(), initializer="zeros", name="total")

    def update_state(self, y_true, y_pred, sample_weight=None):
        labels = ops.cast(ops.reshape(y_true, (-1,)), "int32")
        hit = ops.cast(ops.equal(ops.cast(ops.argmax(y_pred, axis=-1), "int32"), labels), "float32")
        weight = (
            ops.ones_like(hit)
            if sample_weight is None
            else ops.reshape(ops.cast(sample_weight, "float32"), (-1,))
        )
        self.hits.assign_add(ops.sum(hit * weight))
        self.total.assign_add(ops.sum(weight))

    def result(self):
        return self.hits / ops.maximum(self.total, 1.0)


class Batches(keras.utils.PyDataset):
    """Batches of (x, y) arrays, as a `PyDataset`."""

    def __init__(self, x, y, batch_size, **kwargs):
        super().__init__(**kwargs)
        self.x, self.y, self.batch_size = x, y, batch_size

    def __len__(self):
        return math.ceil(len(self.x) / self.batch_size)

    def __getitem__(self, index):
        part = slice(index * self.batch_size, (index + 1) * self.batch_size)
        return self.x[part], self.y[part]


def make_data(n, seed=0):
    """Three Gaussian blobs in 2-D, labels 0..2."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 3, n)
    centers = np.array([[0.0, 2.0], [2.0, -1.0], [-2.0, -1.0]])
    return (centers[labels] + rng.normal(scale=1.2, size=(n, 2))).astype("float32"), labels


def build():
    """A small softmax classifier compiled with the custom loss and metric."""
    model = keras.Sequential(
        [
            keras.Input((2,)),
            layers.Dense(16, activation="relu"),
            layers.Dense(3, activation="softmax"),
        ]
    )
    model.compile(
        optimizer=keras.optimizers.Adam(0.02),
        loss=FocalishLoss(),
        metrics=[HitRate(), "sparse_categorical_accuracy"],
    )
    return model


def main(epochs=15):
    """Train four ways; return {run name: final validation/evaluation hit rate}."""
    keras.utils.set_random_seed(0)
    x, y = make_data(600)
    x_test, y_test = make_data(200, seed=1)
    scores = {}
    model = build()
    model.fit(x, y, batch_size=32, epochs=epochs, validation_split=0.2, verbose=0)
    scores["validation_split"] = model.evaluate(x_test, y_test, verbose=0, return_dict=True)[
        "hit_rate"
    ]
    model = build()
    weights = np.where(y == 2, 2.0, 1.0).astype("float32")
    model.fit(
        x,
        y,
        sample_weight=weights,
        class_weight={0: 1.0, 1: 1.0, 2: 0.5},
        batch_size=32,
        epochs=epochs,
        verbose=0,
    )
    scores["weighted"] = model.evaluate(x_test, y_test, verbose=0, return_dict=True)["hit_rate"]
    model = build()
    model.fit(
        Batches(x, y, 32), validation_data=Batches(x_test, y_test, 64), epochs=epochs, verbose=0
    )
    scores["py_dataset"] = model.evaluate(Batches(x_test, y_test, 64), verbose=0, return_dict=True)[
        "hit_rate"
    ]
    model = build()
    stop = keras.callbacks.EarlyStopping(
        monitor="val_loss", min_delta=1e-3, patience=2, restore_best_weights=True
    )
    history = model.fit(
        x,
        y,
        batch_size=32,
        epochs=100,
        validation_data=(x_test, y_test),
        callbacks=[stop],
        verbose=0,
    )
    scores["early_stopping_epochs"] = len(history.history["loss"])
    print(f"{keras.config.backend()}: {scores}")
    return scores


if __name__ == "__main__":
    main()
