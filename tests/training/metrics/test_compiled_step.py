"""Metrics updated the way a compiled training step updates them: inside a StatelessScope,
under `jax.jit` (pure, over explicit state) or `tf.function` (in place), per backend."""

import numpy as np
import pytest

from tests.training.metrics.helpers import assert_close, batches
from tripod.backends import config
from tripod.backends.common.stateless import StatelessScope
from tripod.training import metrics


def _suite():
    """(metric, data kind) pairs covering every family of state update."""
    return [
        (metrics.Accuracy(), "classes"),
        (metrics.SparseTopKCategoricalAccuracy(k=2), "sparse"),
        (metrics.MeanSquaredError(), "regression"),
        (metrics.RootMeanSquaredError(), "regression"),
        (metrics.CategoricalCrossentropy(), "onehot"),
        (metrics.Precision(top_k=2, class_id=1), "multilabel"),
        (metrics.Recall(thresholds=[0.3, 0.6]), "multilabel"),
        (metrics.SensitivityAtSpecificity(0.5), "multilabel"),
        (metrics.AUC(multi_label=True, curve="PR"), "multilabel"),
        (metrics.F1Score(average="weighted"), "onehot"),
        (metrics.R2Score(), "regression"),
        (metrics.MeanIoU(4), "classes"),
    ]


def _data():
    kinds = {"classes", "sparse", "regression", "onehot", "multilabel"}
    return {kind: batches(kind, seed=5, updates=2) for kind in kinds}


def _eager_results(data):
    out = []
    for m, kind in _suite():
        for yt, yp, sw in data[kind]:
            m.update_state(yt, yp, sample_weight=sw)
        out.append(np.asarray(m.result()))
    return out


def _built_suite(data):
    """The suite with every lazily built metric built from the data's shapes beforehand."""
    suite = _suite()
    for m, kind in suite:
        yt, yp, _ = data[kind][0]
        if not m.built:
            m.build(yt.shape, yp.shape)
    return suite


def _run_in_scope(suite, data):
    """Each update in its own StatelessScope, whose recorded values are then written back."""
    for index in range(2):
        state = [(v, v.value) for m, _ in suite for v in m.variables]
        with StatelessScope(state_mapping=state) as scope:
            for m, kind in suite:
                yt, yp, sw = data[kind][index]
                m.update_state(yt, yp, sample_weight=sw)
        for variable, value in scope.updates:
            variable.assign(value)
    return [m.result() for m, _ in suite]


def _run_jax(suite, data):
    jax = pytest.importorskip("jax")

    def step(state, batch):
        new_state = []
        for (m, kind), values in zip(suite, state):
            yt, yp, sw = batch[kind]
            new_state.append(m.stateless_update_state(values, yt, yp, sample_weight=sw))
        return new_state

    def results(state):
        return [m.stateless_result(values) for (m, _), values in zip(suite, state)]

    state = [m.stateless_reset_state() for m, _ in suite]
    jitted = jax.jit(step)
    for index in range(2):
        state = jitted(state, {kind: data[kind][index] for kind in data})
    return jax.jit(results)(state)


def _run_tensorflow(suite, data):
    tf = pytest.importorskip("tensorflow")

    @tf.function
    def step(batch):
        for m, kind in suite:
            yt, yp, sw = batch[kind]
            m.update_state(yt, yp, sample_weight=sw)

    for index in range(2):
        step({kind: data[kind][index] for kind in data})
    return tf.function(lambda: [m.result() for m, _ in suite])()


def test_updates_inside_a_stateless_scope_match_eager_updates():
    data = _data()
    expected = _eager_results(data)
    for got, want in zip(_run_in_scope(_built_suite(data), data), expected):
        assert_close(got, want)


@pytest.mark.skipif(
    config.backend() not in ("jax", "tensorflow"), reason="compiles with jax or tensorflow"
)
def test_compiled_updates_match_eager_updates():
    data = _data()
    expected = _eager_results(data)
    run = _run_jax if config.backend() == "jax" else _run_tensorflow
    for got, want in zip(run(_built_suite(data), data), expected):
        assert_close(got, want, atol=2e-5)


def test_reset_inside_a_scope_and_stateless_reset_agree():
    m = metrics.AUC(num_thresholds=5)
    m.update_state([1, 0, 1], [0.9, 0.2, 0.4])
    assert_close(m.stateless_reset_state(), np.zeros((4, 5)))
    assert float(np.asarray(m.result())) > 0
