"""The tensorflow backend's compiled step: its concrete functions, looked up by batch signature."""

import collections

import numpy as np
import pytest

from tripod.backends import active, config

pytestmark = pytest.mark.skipif(config.backend() != "tensorflow", reason="tensorflow's step")

ops = active()
rng = np.random.default_rng(0)
Pair = collections.namedtuple("Pair", ["x", "y"])


def _compiled(traces):
    """A compiled step that records each trace and returns sum(x * y) and x's row count."""

    def fn(batch):
        traces.append(1)  # Python runs only while tracing
        x, y = batch
        return {"dot": ops.sum(ops.multiply(x, y)), "rows": ops.shape(x)[0]}

    return ops.compile_step(fn, [], "test", "auto", False)


def _pair(rows):
    x, y = rng.standard_normal((2, rows, 3)).astype("float32")
    return x, y


def _check(out, x, y):
    np.testing.assert_allclose(float(out["dot"]), float(np.sum(x * y)), rtol=1e-5)
    assert int(out["rows"]) == len(x)


def test_one_trace_per_signature_with_numpy_or_tensor_batches():
    tf = pytest.importorskip("tensorflow")
    traces = []
    step = _compiled(traces)
    full, short = _pair(8), _pair(3)
    for batch in (full, full, short, full, _pair(8)):
        _check(step(batch), *batch)
    assert len(traces) == 2  # the full shape, then a relaxed one for the short batch
    _check(step((tf.constant(full[0]), tf.constant(full[1]))), *full)
    assert len(traces) == 2  # tensors of a seen shape and dtype reuse its trace
    _check(step([full[0], full[1]]), *full)
    assert len(traces) == 3  # a list is another structure
    wide = (full[0].astype("float64"), full[1].astype("float64"))
    _check(step(wide), *wide)
    assert len(traces) == 4 and step(wide)["dot"].dtype == tf.float64


def test_batches_the_key_cannot_describe_run_through_the_function():
    traces = []
    step = _compiled(traces)
    x, y = _pair(4)
    for _ in range(2):
        _check(step(Pair(x, y)), x, y)
    assert len(traces) == 1


def test_a_bounded_number_of_signatures_is_remembered(monkeypatch):
    monkeypatch.setattr("tripod.backends.tensorflow.steps.MAX_KEYS", 1)
    traces = []
    step = _compiled(traces)
    for rows in (5, 6, 7, 5, 6, 7):
        batch = _pair(rows)
        _check(step(batch), *batch)
    assert len(traces) == 2  # beyond the bound the tf.function's own cache still serves


def test_the_step_updates_variables_in_place_and_takes_none_entries():
    v = ops.Variable(np.zeros((), "float32"))

    def fn(batch):
        v.assign_add(ops.sum(batch["x"]))
        return {"seen": v.value, "weighted": batch["weights"] is not None}

    step = ops.compile_step(fn, [v], "train", "auto", False)
    x = np.arange(6, dtype="float32").reshape(2, 3)
    for _ in range(2):
        out = step({"x": x, "weights": None})
    assert float(out["seen"]) == 30.0 and not out["weighted"]
    assert float(v.numpy()) == 30.0
