"""Confusion counts, Precision, Recall and the rate-at-constraint metrics against NumPy."""

import numpy as np
import pytest

from tests.training.metrics import reference as R
from tests.training.metrics.helpers import assert_close, batches, feed, joined
from tripod.training import metrics
from tripod.training.metrics import confusion_utils

COUNTS = {
    metrics.TruePositives: 0,
    metrics.FalsePositives: 1,
    metrics.TrueNegatives: 2,
    metrics.FalseNegatives: 3,
}


def _weights(t, w, weighted):
    return R.per_entry_weights(w, t.shape) if weighted else None


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize(
    "thresholds", [None, 0.3, [0.1, 0.5, 0.8]], ids=["default", "scalar", "list"]
)
@pytest.mark.parametrize("cls", list(COUNTS), ids=lambda c: c.__name__)
def test_counts(cls, thresholds, weighted):
    data = batches("multilabel", seed=1)
    m = cls(thresholds=thresholds)
    result = feed(m, data, weighted)
    t, p, w = joined(data)
    limits = [0.5] if thresholds is None else np.reshape(thresholds, -1)
    expected = R.confusion(t, p, limits, _weights(t, w, weighted))[COUNTS[cls]]
    assert_close(result, expected[0] if not isinstance(thresholds, list) else expected)
    assert m.get_config()["thresholds"] == thresholds
    m.reset_state()
    assert_close(m.accumulator.numpy(), np.zeros(len(limits)))


def _precision_recall(t, p, w, thresholds, top_k=None, class_id=None):
    """(precision, recall) per threshold, keeping only top-k predictions and one class."""
    p = R.f64(p).copy()
    if top_k is not None:
        kth = np.sort(p, -1)[:, -top_k][:, None]
        p = np.where(p >= kth, p, -1e10)
    w = np.ones_like(p) if w is None else R.per_entry_weights(w, p.shape)
    if class_id is not None:
        t, p, w = t[:, class_id], p[:, class_id], w[:, class_id]
    tp, fp, _, fn = R.confusion(t, p, thresholds, w)
    return R.ratio(tp, tp + fp), R.ratio(tp, tp + fn)


SETTINGS = {
    "default": {},
    "thresholds": {"thresholds": [0.2, 0.5, 0.7]},
    "top_k": {"top_k": 2},
    "top_k_threshold": {"top_k": 2, "thresholds": 0.4},
    "class_id": {"class_id": 1},
    "top_k_class_id": {"top_k": 1, "class_id": 2},
}


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("setting", sorted(SETTINGS))
@pytest.mark.parametrize("which", [0, 1], ids=["precision", "recall"])
def test_precision_and_recall(which, setting, weighted):
    kwargs = SETTINGS[setting]
    cls = (metrics.Precision, metrics.Recall)[which]
    data = batches("multilabel", seed=2)
    m = cls(**kwargs)
    result = feed(m, data, weighted)
    t, p, w = joined(data)
    thresholds = kwargs.get("thresholds", 0.5 if "top_k" not in kwargs else -1e10)
    expected = _precision_recall(
        t,
        p,
        w if weighted else None,
        np.reshape(thresholds, -1),
        kwargs.get("top_k"),
        kwargs.get("class_id"),
    )[which]
    assert_close(result, expected if isinstance(thresholds, list) else expected[0])
    assert cls.from_config(m.get_config()).get_config() == m.get_config()


def test_precision_of_binary_predictions_and_nothing_predicted():
    m = metrics.Precision()
    m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    assert_close(m.result(), 2 / 3)
    m = metrics.Precision()
    m.update_state([1, 1], [0.1, 0.2])
    assert_close(m.result(), 0.0)


def _at_constraint(t, p, w, num_thresholds, constrained, maximized, target):
    thresholds = [0.5] if num_thresholds == 1 else np.linspace(0, 1, num_thresholds)
    tp, fp, tn, fn = R.confusion(t, p, thresholds, w)
    rates = {
        "recall": R.ratio(tp, tp + fn),
        "precision": R.ratio(tp, tp + fp),
        "specificity": R.ratio(tn, tn + fp),
    }
    feasible = rates[constrained] >= target
    return rates[maximized][feasible].max() if feasible.any() else 0.0


AT = {
    "precision_at_recall": (metrics.PrecisionAtRecall, "recall", "precision"),
    "recall_at_precision": (metrics.RecallAtPrecision, "precision", "recall"),
    "sensitivity_at_specificity": (metrics.SensitivityAtSpecificity, "specificity", "recall"),
    "specificity_at_sensitivity": (metrics.SpecificityAtSensitivity, "recall", "specificity"),
}


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("target, num_thresholds", [(0.5, 200), (0.8, 7), (0.3, 1), (1.0, 50)])
@pytest.mark.parametrize("case", sorted(AT))
def test_rate_at_constraint(case, target, num_thresholds, weighted):
    cls, constrained, maximized = AT[case]
    data = batches("multilabel", seed=4)
    m = cls(target, num_thresholds=num_thresholds)
    result = feed(m, data, weighted)
    t, p, w = joined(data)
    w = R.per_entry_weights(w, t.shape) if weighted else None
    assert_close(result, _at_constraint(t, p, w, num_thresholds, constrained, maximized, target))
    config = m.get_config()
    assert config["num_thresholds"] == num_thresholds and target in config.values()
    assert cls.from_config(config).get_config() == config


def test_rate_at_constraint_of_one_class():
    data = batches("multilabel", seed=5)
    m = metrics.PrecisionAtRecall(0.6, num_thresholds=20, class_id=2)
    result = feed(m, data, True)
    t, p, w = joined(data)
    assert_close(result, _at_constraint(t[:, 2], p[:, 2], w, 20, "recall", "precision", 0.6))


@pytest.mark.parametrize("value", [-0.1, 1.5])
def test_rate_at_constraint_rejects_values_outside_0_1(value):
    with pytest.raises(ValueError, match="range"):
        metrics.RecallAtPrecision(value)
    with pytest.raises(ValueError, match="num_thresholds"):
        metrics.RecallAtPrecision(0.5, num_thresholds=0)


@pytest.mark.parametrize("multi_label", [False, True])
@pytest.mark.parametrize("low, high", [(0.0, 1.0), (-1e-7, 1 + 1e-7)])
def test_bucketed_counts_equal_compared_counts(low, high, multi_label):
    thresholds = confusion_utils.evenly_spaced(5, low, high)
    rng = np.random.default_rng(3)
    p = np.concatenate([[0.0, 0.25, 0.5, 0.75, 1.0, -0.5, 1.5], rng.random(13)]).astype("float32")
    p = p.reshape(5, 4)
    t = (rng.random((5, 4)) > 0.5).astype("float32")
    w = rng.random(5).astype("float32")
    kwargs = {"sample_weight": w, "multi_label": multi_label}
    fast = confusion_utils.confusion_counts(t, p, thresholds, evenly=True, **kwargs)
    slow = confusion_utils.confusion_counts(t, p, thresholds, **kwargs)
    for kind in confusion_utils.KINDS:
        assert_close(fast[kind], np.asarray(slow[kind]))
    if not multi_label:
        expected = R.confusion(t, p, thresholds, R.per_entry_weights(w, t.shape))
        assert_close([fast[kind] for kind in confusion_utils.KINDS], np.stack(expected))


def test_thresholds_must_lie_in_0_1():
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        metrics.Precision(thresholds=1.5)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        metrics.TruePositives(thresholds=[-0.1, 0.5])
    metrics.AUC(thresholds=[1.2])
