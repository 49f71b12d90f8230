"""Accuracy metrics and their functions, against NumPy, over several weighted updates."""

import numpy as np
import pytest

from tests.training.metrics import reference as R
from tests.training.metrics.helpers import assert_close, batches, feed, joined
from tripod.backends import active
from tripod.training import metrics

ops = active()


def _top_k_sparse(t, p, k):
    return R.in_top_k(t.reshape(-1).astype(int), p, k)


CASES = {
    "accuracy": (metrics.Accuracy, {}, "classes", lambda t, p: t == p),
    "binary": (metrics.BinaryAccuracy, {}, "binary", lambda t, p: t == (p > 0.5)),
    "binary_threshold": (
        metrics.BinaryAccuracy,
        {"threshold": 0.3},
        "multilabel",
        lambda t, p: t == (p > 0.3),
    ),
    "categorical": (
        metrics.CategoricalAccuracy,
        {},
        "onehot",
        lambda t, p: t.argmax(-1) == p.argmax(-1),
    ),
    "sparse_categorical": (
        metrics.SparseCategoricalAccuracy,
        {},
        "sparse",
        lambda t, p: t == p.argmax(-1),
    ),
    "top_k": (
        metrics.TopKCategoricalAccuracy,
        {"k": 2},
        "onehot",
        lambda t, p: R.in_top_k(t.argmax(-1), p, 2),
    ),
    "sparse_top_k": (
        metrics.SparseTopKCategoricalAccuracy,
        {"k": 2},
        "sparse",
        lambda t, p: _top_k_sparse(t, p, 2),
    ),
}


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_accuracy_metric_over_updates(case, weighted):
    cls, kwargs, kind, reference = CASES[case]
    data = batches(kind, seed=len(case))
    m = cls(**kwargs)
    result = feed(m, data, weighted)
    t, p, w = joined(data)
    assert_close(result, R.weighted_mean(reference(t, p), w if weighted else None))
    assert ops.dtype(result) == "float32"
    m.reset_state()
    assert_close(m.result(), 0.0)


def test_sparse_labels_may_carry_a_trailing_axis():
    t = np.array([[0], [2], [1]])
    p = np.array([[0.8, 0.1, 0.1], [0.1, 0.2, 0.7], [0.5, 0.3, 0.2]])
    assert_close(metrics.sparse_categorical_accuracy(t, p), [1, 1, 0])
    assert_close(metrics.sparse_top_k_categorical_accuracy(t, p, k=2), [1, 1, 1])


def test_binary_accuracy_matches_label_and_prediction_ranks():
    values = metrics.binary_accuracy(np.array([1.0, 0.0, 1.0]), np.array([[0.7], [0.2], [0.3]]))
    assert_close(np.asarray(values).reshape(-1), [1, 1, 0])


def test_categorical_accuracy_of_sequences():
    t = np.eye(3)[[[0, 1], [2, 2]]]
    p = np.eye(3)[[[0, 2], [2, 1]]] * 0.9
    assert tuple(np.shape(metrics.categorical_accuracy(t, p))) == (2, 2)
    assert_close(metrics.categorical_accuracy(t, p), [[1, 0], [1, 0]])


def test_top_k_counts_ties_as_in():
    p = np.array([[0.5, 0.5, 0.0]])
    assert_close(metrics.top_k_categorical_accuracy(np.array([[0, 1, 0]]), p, k=1), [1])
    assert_close(metrics.sparse_top_k_categorical_accuracy(np.array([1]), p, k=1), [1])


def test_top_k_of_sequences():
    t = np.array([[0, 2], [1, 1]])
    p = np.random.default_rng(0).random((2, 2, 4)).astype("float32")
    expected = R.in_top_k(t, p, 2)
    assert_close(metrics.sparse_top_k_categorical_accuracy(t, p, k=2), expected)
    assert_close(metrics.top_k_categorical_accuracy(np.eye(4)[t], p, k=2), expected)


def test_sparse_top_k_from_sorted_ids():
    ids = np.array([[2, 1, 0], [0, 1, 2], [1, 2, 0]])
    labels = np.array([1, 0, 0])
    assert_close(
        metrics.sparse_top_k_categorical_accuracy(labels, ids, k=1, from_sorted_ids=True), [0, 1, 0]
    )
    m = metrics.SparseTopKCategoricalAccuracy(k=2, from_sorted_ids=True)
    m.update_state(labels, ids)
    assert_close(m.result(), 2 / 3)
    assert m.get_config()["from_sorted_ids"] is True


def test_configs():
    assert metrics.BinaryAccuracy(threshold=0.2).get_config() == {
        "name": "binary_accuracy",
        "dtype": "float32",
        "threshold": 0.2,
    }
    assert metrics.TopKCategoricalAccuracy(k=3, name="top3").get_config()["k"] == 3
    clone = metrics.TopKCategoricalAccuracy.from_config(
        metrics.TopKCategoricalAccuracy(k=3).get_config()
    )
    assert clone._fn_kwargs == {"k": 3}
