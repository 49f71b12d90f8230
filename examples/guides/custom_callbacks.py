"""Writing your own callbacks: a hook recorder, a learning-rate schedule set from a callback, and
early stopping at the lowest loss that puts the best weights back.

Run: TRIPOD_BACKEND=jax python examples/guides/custom_callbacks.py
"""

import numpy as np

import tripod as keras
from tripod import layers


class HookRecorder(keras.callbacks.Callback):
    """Records which hooks `fit`, `evaluate` and `predict` call, in order, with their log keys."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def record(self, hook, logs):
        """Note one hook call and the keys of the logs it received."""
        self.calls.append((hook, sorted(logs or {})))

    def on_train_begin(self, logs=None):
        self.record("train_begin", logs)

    def on_train_end(self, logs=None):
        self.record("train_end", logs)

    def on_epoch_begin(self, epoch, logs=None):
        self.record("epoch_begin", logs)

    def on_epoch_end(self, epoch, logs=None):
        self.record("epoch_end", logs)

    def on_train_batch_end(self, batch, logs=None):
        self.record("train_batch_end", logs)

    def on_test_begin(self, logs=None):
        self.record("test_begin", logs)

    def on_test_batch_end(self, batch, logs=None):
        self.record("test_batch_end", logs)

    def on_test_end(self, logs=None):
        self.record("test_end", logs)

    def on_predict_begin(self, logs=None):
        self.record("predict_begin", logs)

    def on_predict_batch_end(self, batch, logs=None):
        self.record("predict_batch_end", logs)

    def on_predict_end(self, logs=None):
        self.record("predict_end", logs)


class StepDecay(keras.callbacks.Callback):
    """Sets the optimizer's learning rate from `schedule(epoch, current_rate)` each epoch."""

    def __init__(self, schedule):
        super().__init__()
        self.schedule = schedule
        self.rates = []

    def on_epoch_begin(self, epoch, logs=None):
        rate = self.schedule(epoch, float(np.array(self.model.optimizer.learning_rate)))
        self.model.optimizer.learning_rate = rate
        self.rates.append(rate)


class StopAtMinimum(keras.callbacks.Callback):
    """Stops when the training loss rises, restoring the weights of its lowest epoch."""

    def on_train_begin(self, logs=None):
        self.best, self.best_weights, self.stopped_epoch = np.inf, None, None

    def on_epoch_end(self, epoch, logs=None):
        if logs["loss"] < self.best:
            self.best, self.best_weights = logs["loss"], self.model.get_weights()
            return
        self.stopped_epoch = epoch
        self.model.stop_training = True
        self.model.set_weights(self.best_weights)


def halve_every_two(epoch, rate):
    """Half the rate on every second epoch."""
    return rate / 2 if epoch and epoch % 2 == 0 else rate


def triple(epoch, rate):
    """Three times the rate every epoch after the first: a learning-rate range test."""
    return rate * 3 if epoch else rate


def build(rate):
    """A linear regressor trained by SGD at `rate`."""
    model = keras.Sequential([keras.Input((3,)), layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(rate), loss="mse")
    return model


def main(epochs=6):
    """Return (hooks seen, learning rates set, range test: (stopped epoch, weights restored?))."""
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5]], "float32")).astype("float32")
    recorder = HookRecorder()
    model = build(0.1)
    model.fit(x, y, batch_size=32, epochs=1, validation_split=0.5, callbacks=[recorder], verbose=0)
    model.evaluate(x, y, batch_size=32, callbacks=[recorder], verbose=0)
    model.predict(x, batch_size=32, callbacks=[recorder], verbose=0)
    decay = StepDecay(halve_every_two)
    build(0.4).fit(x, y, batch_size=16, epochs=epochs, callbacks=[decay], verbose=0)
    growth, stopper = StepDecay(triple), StopAtMinimum()
    model = build(0.01)
    model.fit(x, y, batch_size=16, epochs=50, callbacks=[growth, stopper], verbose=0)
    restored = all(np.array_equal(a, b) for a, b in zip(model.get_weights(), stopper.best_weights))
    print(f"{keras.config.backend()}: {len(recorder.calls)} hook calls; rates {np.round(decay.rates, 3).tolist()}; "
          f"range test stopped at epoch {stopper.stopped_epoch} (lr {growth.rates[-1]:.3g}), best weights back: {restored}")  # fmt: skip
    return recorder.calls, decay.rates, (stopper.stopped_epoch, restored)


if __name__ == "__main__":
    main()
