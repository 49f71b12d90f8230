"""Metrics held by layers and models as attributes report in fit's logs, as in Keras 3."""

import numpy as np
import pytest

import tripod as keras
from tripod import layers, ops
from tripod.backends import config

needs_training = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)


class RowCounter(layers.Layer):
    """Passes its input through, counting the rows it has seen in a `Sum` metric."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.rows = keras.metrics.Sum(name="rows")

    def call(self, x):
        self.rows.update_state(ops.sum(ops.ones_like(x[:, 0])))
        return x


def counting_model():
    inputs = keras.Input((3,))
    model = keras.Model(inputs, layers.Dense(1)(RowCounter()(inputs)))
    model.compile(keras.optimizers.SGD(0.01), "mse")
    return model


def test_a_layer_lists_the_metrics_it_and_its_sublayers_hold():
    outer = keras.Sequential([keras.Input((3,)), RowCounter(), RowCounter()])
    assert [m.name for m in outer.metrics] == ["rows", "rows"]
    inner = counting_model()  # a model's metrics are its own training's: a parent leaves them out
    wrapper = keras.Sequential([keras.Input((3,)), inner])
    assert [m.name for m in wrapper.metrics] == []


@needs_training
def test_a_metric_updated_in_call_reports_each_epoch_and_resets():
    x = np.ones((8, 3), "float32")
    history = counting_model().fit(
        x, np.zeros((8, 1), "float32"), batch_size=4, epochs=2, verbose=0
    )
    assert history.history["rows"] == [8.0, 8.0]  # 2 batches of 4 rows, reset between epochs


@needs_training
def test_a_model_reports_its_own_tracker_without_overriding_metrics():
    class Tracked(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(1)
            self.calls = keras.metrics.Sum(name="calls")

        def call(self, x):
            self.calls.update_state(1.0)
            return self.dense(x)

    model = Tracked()
    model.compile(keras.optimizers.SGD(0.01), "mse")
    logs = model.evaluate(
        np.ones((6, 3), "float32"),
        np.zeros((6, 1), "float32"),
        batch_size=2,
        verbose=0,
        return_dict=True,
    )
    assert [m.name for m in model.metrics] == ["loss", "calls"]
    assert logs["calls"] == 3.0
