"""The jax steps' fused runs (`steps_per_execution`) when the device cannot hold them: where XLA
refuses the fused program for memory, as it does on a TPU once a scan's batches are large, the
run goes one call a step, the step stops fusing and staging, a warning says so once, and fit,
evaluate and predict give what they give with every run fused."""

import numpy as np
import pytest

import tripod
from tripod.backends import config
from tripod.backends.common import fast_paths

if config.backend() != "jax":
    pytest.skip("the jax steps' fused runs", allow_module_level=True)
if not fast_paths.enabled():
    pytest.skip("tests a fast path: fused_steps is off", allow_module_level=True)

import jax

from tripod.backends.jax import trainer

_OUT_OF_MEMORY = "RESOURCE_EXHAUSTED: Ran out of memory on HBM: 18.36G of temporaries"


def _refused(*args, **kwargs):
    """A `_fused_runner` whose every program is too large for the device, as XLA says it."""
    made = _made_fused(*args, **kwargs)
    if made is None:
        return None

    def run(state, batch):
        calls.append(jax.tree_util.tree_leaves(batch)[0].shape[0])
        raise jax.errors.JaxRuntimeError(_OUT_OF_MEMORY)

    return run


_made_fused = trainer._fused_runner
calls = []


def _model():
    tripod.utils.set_random_seed(3)
    model = tripod.Sequential([tripod.Input((3,)), tripod.layers.Dense(4), tripod.layers.Dense(2)])
    model.compile(optimizer="adam", loss="mse", metrics=["mae"], steps_per_execution=4)
    return model


def _train(model):
    rng = np.random.default_rng(0)
    x, y = rng.random((40, 3), "float32"), rng.random((40, 2), "float32")
    history = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    return history.history, model.evaluate(x, y, batch_size=4, verbose=0), model.predict(x, 4, 0)


def test_runs_too_large_to_fuse_go_one_call_a_step_with_the_same_results(monkeypatch):
    fused = _train(fused_model := _model())
    calls.clear()
    monkeypatch.setattr(trainer, "_fused_runner", _refused)
    with pytest.warns(UserWarning, match="4 steps of this batch size do not fit") as caught:
        stepwise = _train(stepwise_model := _model())
    assert len(caught) == 2  # one for each step that fuses runs: train and test
    assert calls == [4, 4]  # each tried one fused run, then stopped fusing
    assert fused_model._steps["train"].fuses and fused_model._steps["train"].stages
    assert not stepwise_model._steps["train"].fuses and not stepwise_model._steps["train"].stages
    np.testing.assert_allclose(stepwise[0]["loss"], fused[0]["loss"], rtol=1e-5)
    np.testing.assert_allclose(stepwise[1], fused[1], rtol=1e-5)
    np.testing.assert_allclose(stepwise[2], fused[2], rtol=1e-5, atol=1e-6)
    for mine, theirs in zip(stepwise_model.get_weights(), fused_model.get_weights()):
        np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6)


def test_other_runtime_errors_of_a_fused_run_are_raised(monkeypatch):
    def failing(*args, **kwargs):
        def run(state, batch):
            raise jax.errors.JaxRuntimeError("INVALID_ARGUMENT: a broken program")

        return run

    monkeypatch.setattr(trainer, "_fused_runner", failing)
    with pytest.raises(jax.errors.JaxRuntimeError, match="INVALID_ARGUMENT"):
        _train(_model())


def test_a_stacked_predict_run_too_large_to_fuse_joins_its_steps(monkeypatch):
    """predict runs a batch a call, but its step's stacked runs join every step's outputs."""
    monkeypatch.setattr(trainer, "_fused_runner", _refused)
    model = _model()
    x = np.random.default_rng(1).random((2, 4, 3), "float32")
    expected = model.predict(x.reshape(8, 3), batch_size=4, verbose=0)
    with pytest.warns(UserWarning, match="2 steps of this batch size do not fit"):
        joined = model._steps["predict"].run_stacked((x,))
    np.testing.assert_allclose(np.asarray(joined), expected, rtol=1e-6)
