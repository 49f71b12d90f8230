"""Customizing what happens in `fit()`, once for every backend: `train_step` and `test_step`
overridden with `tripod.value_and_grad`, the compiled loss and metrics still doing the bookkeeping.

The step here adds a gradient-norm penalty to nothing and clips nothing: it is the plain
supervised step written out, plus a `grad_norm` log, so the pattern is easy to extend.

Run: TRIPOD_BACKEND=torch python examples/guides/custom_fit_step.py
"""

import numpy as np

import tripod as keras
from tripod import layers, ops


class SteppedModel(keras.Model):
    """A functional model whose training and evaluation steps are written by hand."""

    def train_step(self, data):
        x, y, sample_weight = keras.utils.unpack_x_y_sample_weight(data)

        def loss_and_predictions():
            y_pred = self(x, training=True)
            return self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight), y_pred

        (loss, y_pred), grads = keras.value_and_grad(
            loss_and_predictions, self.trainable_variables, has_aux=True
        )()
        self.optimizer.apply(grads, self.trainable_variables)
        logs = self.update_metrics(loss, y, y_pred, sample_weight)
        logs["grad_norm"] = ops.sqrt(sum(ops.sum(ops.square(g)) for g in grads))
        return logs

    def test_step(self, data):
        x, y, sample_weight = keras.utils.unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight)
        return self.update_metrics(loss, y, y_pred, sample_weight)

    def update_metrics(self, loss, y, y_pred, sample_weight):
        """Feed the loss tracker and the compiled metrics; return every metric's value."""
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred, sample_weight=sample_weight)
        return self.get_metrics_result()


def build():
    """A small regressor as a `SteppedModel`."""
    inputs = keras.Input((8,))
    outputs = layers.Dense(1)(layers.Dense(16, activation="relu")(inputs))
    model = SteppedModel(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    return model


def main(epochs=15):
    """Train and evaluate with the hand-written steps; return (history, evaluation logs)."""
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(512, 8)).astype("float32")
    y = (x[:, :1] * 2 - x[:, 1:2] + 0.1 * rng.normal(size=(512, 1))).astype("float32")
    model = build()
    history = model.fit(
        x, y, batch_size=64, epochs=epochs, sample_weight=np.ones(512, "float32"), verbose=0
    )
    scores = model.evaluate(x, y, verbose=0, return_dict=True)
    print(f"{keras.config.backend()}: loss {history.history['loss'][0]:.3f} -> {history.history['loss'][-1]:.3f}, "
          f"last grad norm {history.history['grad_norm'][-1]:.3f}; evaluate {scores}")  # fmt: skip
    return history.history, scores


if __name__ == "__main__":
    main()
