"""A custom metric whose `result()` returns its own state Variable (issue 14): fit runs on every
backend (jax used to fail inside the jitted step) and the logs hold plain tensor snapshots."""

import numpy as np
import pytest

import tripod as keras
from tripod import ops
from tripod.backends import config

needs_training = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)

X = np.ones((16, 3), "float32")
Y = np.zeros((16, 1), "float32")


class SampleCount(keras.metrics.Metric):
    """Counts the samples seen; `result()` is the counter Variable itself."""

    def __init__(self, name="count", **kwargs):
        super().__init__(name=name, **kwargs)
        self.count = self.add_variable(shape=(), initializer="zeros", name="count")

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.count.assign_add(ops.cast(ops.shape(y_true)[0], "float32"))

    def result(self):
        return self.count


class BatchLogs(keras.callbacks.Callback):
    """Records the metric's value after each training batch."""

    def __init__(self):
        super().__init__()
        self.counts = []

    def on_train_batch_end(self, batch, logs=None):
        self.counts.append(logs["count"])


def _model():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse", metrics=[SampleCount()])
    return model


@needs_training
def test_fit_and_evaluate_report_the_variable_result():
    model, batches = _model(), BatchLogs()
    history = model.fit(X, Y, batch_size=4, epochs=2, verbose=0, callbacks=[batches])
    assert batches.counts == [4.0, 8.0, 12.0, 16.0] * 2  # reset at each epoch
    assert history.history["count"] == [16.0, 16.0]
    assert model.evaluate(X, Y, batch_size=8, verbose=0, return_dict=True)["count"] == 16.0


def test_metrics_result_is_a_snapshot_tensor_not_the_variable():
    model = _model()
    model.evaluate(X[:4], Y[:4], verbose=0)  # builds the compiled metrics
    metric = model.metrics[-1]
    value = model.get_metrics_result()["count"]
    assert ops.is_tensor(value) and not isinstance(value, keras.Variable)
    metric.update_state(Y[:4], Y[:4])  # the state moves on; the value read before does not
    assert float(ops.convert_to_numpy(value)) == 4.0
    assert float(ops.convert_to_numpy(model.get_metrics_result()["count"])) == 8.0
