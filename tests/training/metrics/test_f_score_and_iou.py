"""F-scores (averages, thresholds, weights) and the IoU family against NumPy."""

import numpy as np
import pytest

from tests.training.metrics import reference as R
from tests.training.metrics.helpers import assert_close, batches, feed, joined
from tripod.training import metrics


def _fbeta(t, p, w, beta, threshold, average):
    t, p = R.f64(t), R.f64(p)
    if threshold is None:
        predicted = (p >= p.max(-1, keepdims=True)) & (np.abs(p) > 1e-9)
    else:
        predicted = p > threshold
    w = np.ones_like(t) if w is None else R.per_entry_weights(w, t.shape)
    axis = None if average == "micro" else 0
    tp = (predicted * t * w).sum(axis)
    fp = (predicted * (1 - t) * w).sum(axis)
    fn = (~predicted * t * w).sum(axis)
    precision, recall = R.ratio(tp, tp + fp), R.ratio(tp, tp + fn)
    scores = (1 + beta**2) * R.ratio(precision * recall, beta**2 * precision + recall)
    if average == "macro":
        return scores.mean()
    if average == "weighted":
        support = (t * w).sum(0)
        return np.sum(scores * support / support.sum())
    return scores


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
@pytest.mark.parametrize(
    "beta, threshold, kind",
    [(1.0, None, "onehot"), (1.0, 0.4, "multilabel"), (2.0, 0.6, "multilabel")],
)
def test_fbeta_score(beta, threshold, kind, average, weighted):
    data = batches(kind, seed=21)
    if beta == 1.0:
        m = metrics.F1Score(average=average, threshold=threshold)
    else:
        m = metrics.FBetaScore(average=average, beta=beta, threshold=threshold)
    result = feed(m, data, weighted)
    t, p, w = joined(data)
    assert_close(result, _fbeta(t, p, w if weighted else None, beta, threshold, average))
    m.reset_state()
    assert_close(m.true_positives.numpy(), np.zeros(m.true_positives.shape))


def test_fbeta_without_threshold_ignores_all_zero_rows_and_counts_ties():
    m = metrics.F1Score()
    t = np.eye(3)[[0, 1, 2]]
    p = np.array([[0.0, 0.0, 0.0], [0.4, 0.4, 0.2], [-3.0, -2.0, -1.0]])
    m.update_state(t, p, sample_weight=np.array([[1.0], [1.0], [1.0]]))
    assert_close(m.true_positives.numpy(), [0, 1, 1])
    assert_close(m.false_positives.numpy(), [1, 0, 0])


def test_fbeta_configs_and_validation():
    assert metrics.F1Score(average="macro").get_config() == {
        "name": "f1_score",
        "dtype": "float32",
        "average": "macro",
        "threshold": None,
    }
    config = metrics.FBetaScore(beta=0.5, threshold=0.3).get_config()
    assert metrics.FBetaScore.from_config(config).get_config() == config
    for kwargs in (
        {"average": "median"},
        {"beta": 1},
        {"beta": -1.0},
        {"threshold": 1.5},
        {"threshold": 1},
    ):
        with pytest.raises(ValueError):
            metrics.FBetaScore(**kwargs)
    with pytest.raises(ValueError, match="2D"):
        metrics.F1Score().update_state(np.ones(3), np.ones(3))


def _classes(seed, shape=(5, 3), c=4):
    rng = np.random.default_rng(seed)
    return [
        (rng.integers(0, c, shape), rng.integers(0, c, shape), rng.random(shape).astype("float32"))
        for _ in range(3)
    ]


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize(
    "targets, ignore", [([0, 2], None), ([1], None), ([0, 1, 2, 3], 1), ([3], 3)]
)
def test_iou(targets, ignore, weighted):
    data = _classes(31)
    m = metrics.IoU(4, targets, ignore_class=ignore)
    result = feed(m, data, weighted)
    t, p, w = joined(data)
    w = w if weighted else np.ones(t.shape)
    w = np.where(t == ignore, 0.0, w)
    cm = R.confusion_matrix(t, p, 4, w)
    assert_close(m.total_cm.numpy(), cm)
    assert_close(result, R.mean_iou(cm, targets))


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_mean_iou_and_one_hot_forms(weighted):
    data = _classes(32)
    t, p, w = joined(data)
    cm = R.confusion_matrix(t, p, 4, w if weighted else None)
    expected = R.mean_iou(cm, [0, 1, 2, 3])
    scores = np.random.default_rng(0).random(p.shape + (4,))
    scores[np.arange(p.size) // 3, np.arange(p.size) % 3, p.reshape(-1)] += 1
    eye = np.eye(4, dtype="float32")
    for m, yt, yp in [
        (metrics.MeanIoU(4), t, p),
        (metrics.MeanIoU(4, sparse_y_pred=False), t, scores),
        (metrics.OneHotMeanIoU(4), eye[t], scores),
        (metrics.OneHotMeanIoU(4, sparse_y_pred=True), eye[t], p),
    ]:
        m.update_state(yt, yp, sample_weight=w if weighted else None)
        assert_close(m.result(), expected)
    m = metrics.OneHotIoU(4, [1, 3])
    m.update_state(eye[t], scores, sample_weight=w if weighted else None)
    assert_close(m.result(), R.mean_iou(cm, [1, 3]))


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("targets, threshold", [((0, 1), 0.5), ([1], 0.3), ([0], 0.7)])
def test_binary_iou(targets, threshold, weighted):
    data = batches("binary", seed=33)
    m = metrics.BinaryIoU(target_class_ids=targets, threshold=threshold)
    result = feed(m, data, weighted)
    t, p, w = joined(data)
    cm = R.confusion_matrix(t.astype(int), (p >= threshold).astype(int), 2, w if weighted else None)
    assert_close(result, R.mean_iou(cm, list(targets)))


def test_iou_configs_and_validation():
    config = metrics.IoU(3, [0, 2], ignore_class=1, name="iou").get_config()
    assert config == {
        "name": "iou",
        "dtype": "float32",
        "num_classes": 3,
        "target_class_ids": [0, 2],
        "ignore_class": 1,
        "sparse_y_true": True,
        "sparse_y_pred": True,
        "axis": -1,
    }
    for cls, kwargs in [
        (metrics.IoU, {"num_classes": 3, "target_class_ids": [1]}),
        (metrics.MeanIoU, {"num_classes": 3}),
        (metrics.BinaryIoU, {"target_class_ids": [1], "threshold": 0.3}),
        (metrics.OneHotIoU, {"num_classes": 3, "target_class_ids": [0]}),
        (metrics.OneHotMeanIoU, {"num_classes": 3, "sparse_y_pred": True}),
    ]:
        m = cls(**kwargs)
        assert cls.from_config(m.get_config()).get_config() == m.get_config()
    with pytest.raises(ValueError, match="Target class ids"):
        metrics.IoU(3, [3])
    assert_close(metrics.MeanIoU(3).result(), 0.0)
