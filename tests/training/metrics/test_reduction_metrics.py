"""Mean, Sum and MeanMetricWrapper: weighted accumulation over batches and weight shapes."""

import numpy as np
import pytest

from tests.training.metrics import reference as R
from tests.training.metrics.helpers import assert_close
from tripod.backends import active
from tripod.training import metrics

ops = active()
rng = np.random.default_rng(7)
VALUES = [rng.random((4, 3)).astype("float32") for _ in range(3)]


def _reference(values, weights, reduce):
    """Per update: values reduced over axes the weights lack, times broadcast weights, then
    reduced per sample (weights too); summed over updates."""
    total = count = 0.0
    for v, w in zip(values, weights):
        v = R.f64(v)
        w = np.ones(v.shape[:1]) if w is None else R.f64(w)
        v = reduce(v, axis=tuple(range(w.ndim, v.ndim))) if v.ndim > w.ndim else v
        w = np.broadcast_to(w, v.shape)
        vw = v * w
        per_value = reduce(vw, axis=tuple(range(1, vw.ndim))) if vw.ndim > 1 else vw
        per_weight = reduce(w, axis=tuple(range(1, w.ndim))) if w.ndim > 1 else w
        total += per_value.sum()
        count += per_weight.sum()
    return total, count


WEIGHTS = {
    "none": [None] * 3,
    "per_sample": [rng.random(4).astype("float32") for _ in range(3)],
    "per_sample_column": [rng.random((4, 1)).astype("float32") for _ in range(3)],
    "per_entry": [rng.random((4, 3)).astype("float32") for _ in range(3)],
    "per_column": [rng.random((1, 3)).astype("float32") for _ in range(3)],
}


@pytest.mark.parametrize("weights", sorted(WEIGHTS))
def test_mean_over_updates(weights):
    m = metrics.Mean()
    for v, w in zip(VALUES, WEIGHTS[weights]):
        m.update_state(v, sample_weight=w)
    total, count = _reference(VALUES, WEIGHTS[weights], np.mean)
    assert_close(m.result(), total / count)
    assert_close(m.total.numpy(), total)
    assert_close(m.count.numpy(), count)
    assert ops.dtype(m.result()) == "float32"


@pytest.mark.parametrize("weights", sorted(WEIGHTS))
def test_sum_over_updates(weights):
    m = metrics.Sum()
    for v, w in zip(VALUES, WEIGHTS[weights]):
        m.update_state(v, sample_weight=w)
    assert_close(m.result(), _reference(VALUES, WEIGHTS[weights], np.sum)[0], rtol=1e-5)


def test_scalar_weight_and_scalar_values():
    m = metrics.Mean()
    m.update_state(np.array([0.0, 1.0, 2.0]), sample_weight=2.0)
    m.update_state(4.0)
    assert_close(m.result(), (1.0 * 2 + 4.0) / 3)


def test_mean_of_nothing_is_zero_and_reset_restarts():
    m = metrics.Mean()
    assert_close(m.result(), 0.0)
    m.update_state([1.0, 2.0], sample_weight=[0.0, 0.0])
    assert_close(m.result(), 0.0)
    m.update_state([3.0])
    m.reset_state()
    m.update_state([5.0, 7.0])
    assert_close(m.result(), 6.0)


def _scaled_error(y_true, y_pred, scale=1.0):
    return ops.multiply(ops.mean(ops.abs(ops.subtract(y_pred, y_true)), axis=-1), scale)


def test_mean_metric_wrapper_passes_options_and_weights():
    m = metrics.MeanMetricWrapper(_scaled_error, name="err", scale=2.0)
    t = [rng.random((5, 2)).astype("float32") for _ in range(2)]
    p = [rng.random((5, 2)).astype("float32") for _ in range(2)]
    w = [rng.random(5).astype("float32") for _ in range(2)]
    for a, b, c in zip(t, p, w):
        m.update_state(a, b, sample_weight=c)
    expected = R.weighted_mean(2 * R.mae(np.concatenate(t), np.concatenate(p)), np.concatenate(w))
    assert_close(m.result(), expected)
    assert m.name == "err" and m.get_config()["scale"] == 2.0


def test_mean_metric_wrapper_default_name_and_config_round_trip():
    m = metrics.MeanMetricWrapper(metrics.mean_squared_error)
    assert m.name.startswith("mean_metric_wrapper")
    config = metrics.serialize(m)
    clone = metrics.deserialize(config)
    assert isinstance(clone, metrics.MeanMetricWrapper) and clone.name == m.name
    clone.update_state(np.array([[1.0, 2.0]]), np.array([[1.0, 4.0]]))
    assert_close(clone.result(), 2.0)


def test_mean_metric_wrapper_with_threshold_round_trips():
    m = metrics.MeanMetricWrapper(metrics.binary_accuracy, name="acc3", threshold=0.3)
    clone = metrics.MeanMetricWrapper.from_config(m.get_config())
    clone.update_state(np.array([1.0, 0.0, 1.0]), np.array([0.4, 0.2, 0.1]))
    assert_close(clone.result(), 2 / 3)
