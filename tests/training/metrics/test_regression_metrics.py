"""Regression metrics and R2Score against NumPy, over several weighted updates."""

import numpy as np
import pytest

from tests.training.metrics import reference as R
from tests.training.metrics.helpers import assert_close, batches, feed, joined
from tripod.backends import active
from tripod.training import metrics

ops = active()

CASES = {
    "mse": (metrics.MeanSquaredError, {}, R.mse),
    "mae": (metrics.MeanAbsoluteError, {}, R.mae),
    "mape": (metrics.MeanAbsolutePercentageError, {}, R.mape),
    "msle": (metrics.MeanSquaredLogarithmicError, {}, R.msle),
    "logcosh": (metrics.LogCoshError, {}, R.log_cosh),
    "cosine": (metrics.CosineSimilarity, {}, R.cosine),
    "pearson": (metrics.PearsonCorrelation, {}, R.pearson),
    "concordance": (metrics.ConcordanceCorrelation, {}, R.concordance),
}


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_mean_regression_metric_over_updates(case, weighted):
    cls, kwargs, reference = CASES[case]
    data = batches("regression", seed=len(case))
    m = cls(**kwargs)
    result = feed(m, data, weighted)
    t, p, w = joined(data)
    assert_close(result, R.weighted_mean(reference(t, p), w if weighted else None), rtol=1e-4)
    assert ops.dtype(result) == "float32"
    m.reset_state()
    assert_close(m.result(), 0.0)


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_root_mean_squared_error(weighted):
    data = batches("regression", seed=3)
    result = feed(metrics.RootMeanSquaredError(), data, weighted)
    t, p, w = joined(data)
    assert_close(result, np.sqrt(R.weighted_mean((R.f64(p) - t) ** 2, w if weighted else None)))


def test_cosine_similarity_along_another_axis_and_zero_vectors():
    t, p = np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([[1.0, 0.0], [1.0, 0.0]])
    m = metrics.CosineSimilarity()
    m.update_state(t, p)
    assert_close(m.result(), (0 + 1 / np.sqrt(2)) / 2)
    m = metrics.CosineSimilarity(axis=0)
    m.update_state(t, p)
    assert_close(m.result(), R.cosine(t.T, p.T).mean())
    assert metrics.CosineSimilarity.from_config(m.get_config())._fn_kwargs == {"axis": 0}


def _r2(t, p, w, aggregation, regressors):
    """Keras 3's R²: weighted sums per output; `n` counts entries for the adjustment."""
    t, p = R.f64(t), R.f64(p)
    w = np.ones_like(t) if w is None else np.broadcast_to(R.f64(w)[:, None], t.shape)
    mean = (w * t).sum(0) / w.sum(0)
    total = (w * t * t).sum(0) - (w * t).sum(0) * mean
    scores = 1 - (w * (t - p) ** 2).sum(0) / total
    if aggregation == "uniform_average":
        scores = scores.mean()
    elif aggregation == "variance_weighted_average":
        scores = np.sum(total * scores) / total.sum()
    n = t.size
    if regressors and n - regressors - 1 > 0:
        scores = 1 - (1 - scores) * (n - 1) / (n - regressors - 1)
    return scores


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize(
    "aggregation, regressors",
    [
        ("uniform_average", 0),
        (None, 0),
        ("variance_weighted_average", 0),
        ("uniform_average", 3),
        (None, 100),
    ],
)
def test_r2_score(aggregation, regressors, weighted):
    data = batches("regression", seed=11)
    m = metrics.R2Score(class_aggregation=aggregation, num_regressors=regressors)
    result = feed(m, data, weighted)
    t, p, w = joined(data)
    assert_close(result, _r2(t, p, w if weighted else None, aggregation, regressors), rtol=1e-4)
    assert [v.name for v in m.variables] == [
        "num_samples",
        "squared_sum",
        "sum",
        "residual",
        "count",
    ]
    m.reset_state()
    assert_close(m.num_samples.numpy(), 0.0)


def test_r2_score_builds_for_a_known_output_size_and_rejects_bad_arguments():
    m = metrics.R2Score()
    assert not m.built and len(m.variables) == 1
    m.build((None, 3), (None, 3))
    assert m.built and m.sum.shape == (3,)
    with pytest.raises(ValueError, match="2D"):
        metrics.R2Score().update_state(np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="class_aggregation"):
        metrics.R2Score(class_aggregation="median")
    with pytest.raises(ValueError, match="num_regressors"):
        metrics.R2Score(num_regressors=-1)


def test_r2_score_of_constant_labels_is_zero():
    m = metrics.R2Score(class_aggregation=None)
    m.update_state(np.ones((3, 2)), np.array([[1.0, 2.0], [0.0, 1.0], [1.0, 1.0]]))
    assert_close(m.result(), [0.0, 0.0])
