"""Many models compiled with `jit_compile=True` in one process all stay compiled: torch.compile's
limit on compilations per code object must not turn a later model's step silently eager, and
the gradient does not break a step's graph."""

import logging
import warnings

import numpy as np
import pytest

import tripod
from tripod import layers, ops
from tripod.backends import config

if config.backend() != "torch":
    pytest.skip("torch.compile steps", allow_module_level=True)

import torch  # only once the torch backend is known to be active
from torch._dynamo.utils import counters

from tripod.backends.torch import hooks

#: torch.compile's per-code-object limit, lowered so that a few models would pass it
LIMIT = 2
MODELS = LIMIT + 2


class _LimitHits(logging.Handler):
    """Collects dynamo's 'hit config.recompile_limit' messages: past that limit it runs a
    frame eagerly and says nothing else."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        message = record.getMessage()
        if "recompile_limit" in message:
            self.messages.append(message)


def _model(i):
    return tripod.Sequential(
        [
            tripod.Input((3 + i,)),
            layers.Dense(4 + i, activation="tanh"),
            layers.Dense(2),
        ]
    )


def _data(i):
    rng = np.random.default_rng(i)
    return rng.normal(size=(8, 3 + i)).astype("float32"), rng.normal(size=(8, 2)).astype("float32")


def _fit(model, initial, x, y, **compile_kwargs):
    """(losses per epoch, weights) after two full-batch epochs of Adam from `initial`."""
    model.set_weights(initial)
    model.compile(optimizer=tripod.optimizers.Adam(0.05), loss="mse", **compile_kwargs)
    history = model.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=False)
    return history.history["loss"], model.get_weights()


@pytest.fixture
def limit_hits():
    handler = _LimitHits()
    dynamo_log = logging.getLogger("torch._dynamo")
    dynamo_log.addHandler(handler)
    try:
        with torch._dynamo.config.patch(recompile_limit=LIMIT):
            yield handler.messages
    finally:
        dynamo_log.removeHandler(handler)


@pytest.mark.slow  # one model's compiled steps: test_a_models_steps_compile_once (fast)
def test_the_last_of_many_compiled_models_trains_compiled_as_eagerly(limit_hits):
    for i in range(MODELS):
        model, (x, y) = _model(i), _data(i)
        initial = model.get_weights()
        graphs = counters["stats"]["unique_graphs"]
        with warnings.catch_warnings():  # a step torch.compile gave up on warns, runs eagerly
            warnings.filterwarnings("error", message="torch.compile could not compile")
            compiled = _fit(model, initial, x, y, jit_compile=True)
        assert not limit_hits, f"model {i}: {limit_hits[0]}"
        assert counters["stats"]["unique_graphs"] > graphs, f"model {i} compiled no graph"
    eager = _fit(model, initial, x, y, run_eagerly=True)
    np.testing.assert_allclose(compiled[0], eager[0], rtol=1e-5, atol=1e-5)
    for got, want in zip(compiled[1], eager[1]):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_the_gradient_joins_the_steps_graph():
    # torch.autograd.grad broke the graph in two: the frames after the break are library code
    # that every model shares
    variable = tripod.Variable(np.array([1.0, 2.0, 3.0], "float32"))
    grad_of = hooks.value_and_grad(lambda x: ops.sum(ops.multiply(variable, x) ** 2), [variable])

    def step(x):
        loss, (grad,) = grad_of(x)
        variable.assign_sub(ops.multiply(grad, 0.1))
        return loss

    breaks = sum(counters["graph_break"].values())
    compiled = hooks.compile_step(step, [variable], "train", True, False)
    x = np.array([0.5, -1.0, 2.0], "float32")
    losses = [float(compiled(x)) for _ in range(2)]
    assert sum(counters["graph_break"].values()) == breaks, dict(counters["graph_break"])
    want, value = [], np.array([1.0, 2.0, 3.0])
    for _ in range(2):
        want.append(np.sum((value * x) ** 2))
        value = value - 0.1 * 2 * value * x**2
    np.testing.assert_allclose(losses, want, rtol=1e-5)
    np.testing.assert_allclose(variable.numpy(), value, rtol=1e-5)


def test_a_models_train_step_compiles_without_a_graph_break():
    # the step reads `model.metrics`; a property calling `super().metrics` broke its graph
    model, (x, y) = _model(0), _data(0)
    breaks = sum(counters["graph_break"].values())
    _fit(model, model.get_weights(), x, y, jit_compile=True)
    assert sum(counters["graph_break"].values()) == breaks, dict(counters["graph_break"])


def test_a_models_steps_compile_once():
    # a cache filled on first use (a dtype table, the optimizer's layout) that the trace saw
    # empty failed a guard on the next call: the step compiled a second time
    model, (x, y) = _model(1), _data(1)
    model.compile(optimizer=tripod.optimizers.Adam(0.05), loss="mse", jit_compile=True)
    model.fit(x, y, batch_size=8, epochs=1, verbose=0)  # one step, one trace
    model.predict(x, batch_size=8, verbose=0)
    graphs = counters["stats"]["unique_graphs"]
    model.fit(x, y, batch_size=8, epochs=2, verbose=0)
    model.predict(x, batch_size=8, verbose=0)
    assert counters["stats"]["unique_graphs"] == graphs
