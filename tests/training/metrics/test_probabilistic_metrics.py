"""Crossentropy, KL divergence, Poisson and hinge metrics against NumPy."""

import numpy as np
import pytest

from tests.training.metrics import reference as R
from tests.training.metrics.helpers import assert_close, batches, feed, joined
from tripod.backends import active
from tripod.training import metrics

ops = active()

CASES = {
    "bce": (metrics.BinaryCrossentropy, {}, "multilabel", R.binary_crossentropy),
    "bce_logits_smoothing": (
        metrics.BinaryCrossentropy,
        {"from_logits": True, "label_smoothing": 0.1},
        "multilabel",
        lambda t, p: R.binary_crossentropy(t, p, True, 0.1),
    ),
    "cce": (metrics.CategoricalCrossentropy, {}, "onehot", R.categorical_crossentropy),
    "cce_smoothing": (
        metrics.CategoricalCrossentropy,
        {"label_smoothing": 0.2},
        "onehot",
        lambda t, p: R.categorical_crossentropy(t, p, False, 0.2),
    ),
    "scce": (
        metrics.SparseCategoricalCrossentropy,
        {},
        "sparse",
        R.sparse_categorical_crossentropy,
    ),
    "scce_logits": (
        metrics.SparseCategoricalCrossentropy,
        {"from_logits": True},
        "sparse",
        lambda t, p: R.sparse_categorical_crossentropy(t, p, True),
    ),
    "kld": (metrics.KLDivergence, {}, "onehot", R.kl_divergence),
    "poisson": (metrics.Poisson, {}, "regression", R.poisson),
    "hinge": (metrics.Hinge, {}, "signs", R.hinge),
    "hinge_01": (metrics.Hinge, {}, "multilabel", R.hinge),
    "squared_hinge": (metrics.SquaredHinge, {}, "signs", R.squared_hinge),
    "categorical_hinge": (metrics.CategoricalHinge, {}, "onehot", R.categorical_hinge),
}


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_probabilistic_metric_over_updates(case, weighted):
    cls, kwargs, kind, reference = CASES[case]
    data = batches(kind, seed=len(case))
    m = cls(**kwargs)
    result = feed(m, data, weighted)
    t, p, w = joined(data)
    assert_close(result, R.weighted_mean(reference(t, p), w if weighted else None), rtol=1e-4)
    assert ops.dtype(result) == "float32"
    clone = cls.from_config(m.get_config())
    assert clone.get_config() == m.get_config()


def test_metric_functions_from_the_losses_give_per_sample_values():
    t, p, _ = batches("regression", seed=1)[0]
    assert_close(metrics.mean_squared_error(t, p), R.mse(t, p))
    assert_close(metrics.huber(t, p, delta=0.5), R.huber(t, p, 0.5))
    assert_close(metrics.log_cosh(t, p), R.log_cosh(t, p))
    assert_close(metrics.poisson(t, p), R.poisson(t, p), rtol=1e-4)


def test_configs_keep_their_options():
    config = metrics.SparseCategoricalCrossentropy(
        from_logits=True, ignore_class=0, axis=-1
    ).get_config()
    assert config == {
        "name": "sparse_categorical_crossentropy",
        "dtype": "float32",
        "from_logits": True,
        "ignore_class": 0,
        "axis": -1,
    }
    assert metrics.LogCoshError().name == "logcosh"
    assert np.isfinite(float(metrics.BinaryCrossentropy()(np.array([[1.0]]), np.array([[0.0]]))))
