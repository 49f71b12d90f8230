"""AUC: ROC against a NumPy trapezoid and the exact rank statistic, PR interpolation against
numeric integration, the other summations, multi-label and label weights."""

import numpy as np
import pytest

from tests.training.metrics import reference as R
from tests.training.metrics.helpers import assert_close, batches, feed, joined
from tripod.backends import config
from tripod.training import metrics


def _thresholds(num):
    eps = config.epsilon()
    return np.array([-eps] + [(i + 1) / (num - 1) for i in range(num - 2)] + [1 + eps])


def _roc(tp, fp, tn, fn, method="interpolation"):
    fpr, tpr = R.ratio(fp, fp + tn), R.ratio(tp, tp + fn)
    if method == "interpolation":
        return -np.trapezoid(tpr, fpr)
    pick = np.minimum if method == "minoring" else np.maximum
    return np.sum((fpr[:-1] - fpr[1:]) * pick(tpr[:-1], tpr[1:]))


def _pr_integrated(tp, fp, fn, steps=2000):
    """Area under precision over recall, tp growing linearly with predicted positives between
    thresholds, integrated numerically."""
    area = 0.0
    for i in range(len(tp) - 1):
        s = np.linspace(0, 1, steps)
        tps = tp[i + 1] + s * (tp[i] - tp[i + 1])
        predicted = tps + fp[i + 1] + s * (fp[i] - fp[i + 1])
        precision = R.ratio(tps, predicted)
        recall = tps / (tp[0] + fn[0])
        area += np.trapezoid(precision, recall)
    return area


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("method", ["interpolation", "minoring", "majoring"])
def test_roc_auc(method, weighted):
    data = batches("multilabel", seed=8)
    m = metrics.AUC(num_thresholds=50, summation_method=method)
    result = feed(m, data, weighted)
    t, p, w = joined(data)
    counts = R.confusion(
        t, p, _thresholds(50), R.per_entry_weights(w, t.shape) if weighted else None
    )
    assert_close(result, _roc(*counts, method))
    assert_close(m.true_positives.numpy(), counts[0])


def test_roc_auc_at_every_score_is_the_rank_statistic():
    rng = np.random.default_rng(0)
    p = rng.permutation(40) / 40 + 0.01
    t = (rng.random(40) < p).astype("float32")
    m = metrics.AUC(thresholds=np.sort(p) - 0.005)
    m.update_state(t, p.astype("float32"))
    positives, negatives = p[t == 1], p[t == 0]
    exact = np.mean(positives[:, None] > negatives[None, :])
    assert_close(m.result(), exact)


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_pr_auc_interpolation(weighted):
    data = batches("binary", seed=9)
    m = metrics.AUC(num_thresholds=11, curve="PR")
    result = feed(m, data, weighted)
    t, p, w = joined(data)
    tp, fp, _, fn = R.confusion(t, p, _thresholds(11), w if weighted else None)
    assert_close(result, _pr_integrated(tp, fp, fn), atol=1e-4)


@pytest.mark.parametrize("method", ["minoring", "majoring"])
def test_pr_auc_riemann_sums(method):
    data = batches("multilabel", seed=10)
    m = metrics.AUC(num_thresholds=30, curve="pr", summation_method=method)
    result = feed(m, data, False)
    t, p, _ = joined(data)
    tp, fp, _, fn = R.confusion(t, p, _thresholds(30))
    recall, precision = R.ratio(tp, tp + fn), R.ratio(tp, tp + fp)
    pick = np.minimum if method == "minoring" else np.maximum
    assert_close(result, np.sum((recall[:-1] - recall[1:]) * pick(precision[:-1], precision[1:])))


def test_pr_gain_auc():
    t = np.array([1, 1, 1, 0, 0, 1], "float32")
    p = np.array([0.9, 0.4, 0.6, 0.1, 0.3, 0.2], "float32")
    m = metrics.AUC(num_thresholds=5, curve="PRGAIN")
    m.update_state(t, p)
    tp, fp, tn, fn = R.confusion(t, p, _thresholds(5))
    positives, negatives = tp + fn, fp + tn
    recall_gain = np.maximum(R.ratio(tp * negatives - fn * positives, tp * negatives), 0)
    precision_gain = 1 - R.ratio(fp * positives, tp * negatives)
    expected = np.sum(
        (recall_gain[:-1] - recall_gain[1:]) * (precision_gain[:-1] + precision_gain[1:]) / 2
    )
    assert_close(m.result(), expected)
    assert_close(m.result(), 1 / 3)


@pytest.mark.parametrize("label_weights", [None, [1.0, 2.0, 0.0, 1.0]])
def test_multi_label_averages_per_label_areas(label_weights):
    data = batches("multilabel", seed=12)
    m = metrics.AUC(num_thresholds=20, multi_label=True, label_weights=label_weights)
    assert not m.built
    result = feed(m, data, True)
    assert m.true_positives.shape == (20, 4) and m.num_labels == 4
    t, p, w = joined(data)
    areas = [_roc(*R.confusion(t[:, j], p[:, j], _thresholds(20), w)) for j in range(4)]
    assert_close(result, np.average(areas, weights=label_weights))


def test_label_weights_weigh_entries_without_multi_label():
    data = batches("multilabel", seed=13)
    m = metrics.AUC(num_thresholds=20, label_weights=[1.0, 0.5, 2.0, 0.0])
    result = feed(m, data, False)
    t, p, _ = joined(data)
    w = np.broadcast_to(np.array([1.0, 0.5, 2.0, 0.0]), t.shape)
    assert_close(result, _roc(*R.confusion(t, p, _thresholds(20), w)))


def test_from_logits_applies_a_sigmoid():
    data = [(t > 0, p, w) for t, p, w in batches("signs", seed=14)]
    m = metrics.AUC(num_thresholds=30, from_logits=True)
    t, p, _ = joined(data)
    result = feed(m, data, False)
    assert_close(result, _roc(*R.confusion(t, R.sigmoid(R.f64(p)), _thresholds(30))))


def test_configs_and_validation():
    m = metrics.AUC(thresholds=[0.5, 0.3], curve="pr", name="pr_auc")
    config = m.get_config()
    assert (
        config["thresholds"] == [0.3, 0.5]
        and config["num_thresholds"] == 4
        and config["curve"] == "PR"
    )
    clone = metrics.AUC.from_config(config)
    assert np.allclose(clone.thresholds, m.thresholds)
    m = metrics.AUC(multi_label=True, num_labels=3, label_weights=np.array([1, 2, 3]))
    assert m.get_config()["label_weights"] == [1.0, 2.0, 3.0] and m.built
    with pytest.raises(ValueError, match="curve"):
        metrics.AUC(curve="XX")
    with pytest.raises(ValueError, match="summation"):
        metrics.AUC(summation_method="careful_interpolation")
    with pytest.raises(ValueError, match="num_thresholds"):
        metrics.AUC(num_thresholds=1)
    assert_close(metrics.AUC().result(), 0.0)
