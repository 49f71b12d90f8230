"""The torch step under `jit_compile=True`: torch.compile with static shapes, and a one-time
warning and an eager step (never a crash, never a half-run step) when compiling fails."""

import inspect
import os
import subprocess
import sys
import traceback
import warnings

import numpy as np
import pytest

import tripod
from tests.layers.harness import to_numpy
from tripod import ops
from tripod.backends import active, config

if config.backend() != "torch":
    pytest.skip("torch.compile steps", allow_module_level=True)

import torch  # only once the torch backend is known to be active

from tripod.backends.torch import compiled


def test_axis_ints_stay_static_when_an_op_breaks_the_graph(monkeypatch):
    # moveaxis is compiled as its own frame when an op it calls breaks the graph; called again
    # with other axes, torch.compile made them symbolic ints, evaluated `0 not in [0]` as True
    # and asked transpose for axes [0, 0, 1, 2].
    backend = active()
    transpose = backend.transpose

    def breaking_transpose(x, axes=None):
        torch._dynamo.graph_break()  # as an op torch.compile cannot trace does
        return transpose(x, axes)

    monkeypatch.setattr(backend, "transpose", breaking_transpose)
    torch._dynamo.reset()
    x = torch.arange(30.0).reshape(2, 5, 3)
    step = compiled.CompiledStep(
        lambda x: backend.moveaxis(backend.moveaxis(x, 1, 0), 0, 1), [], "predict step"
    )
    np.testing.assert_array_equal(step(x).numpy(), x.numpy())


def _model():
    model = tripod.Sequential(
        [tripod.Input((4,)), tripod.layers.Dense(3), tripod.layers.BatchNormalization()]
    )
    model.compile(optimizer=tripod.optimizers.SGD(0.1), loss="mse")
    return model


def _failing_backend(graph_module, example_inputs):
    raise RuntimeError("no kernel for this graph")


def test_a_step_that_cannot_compile_runs_eagerly_after_one_warning(monkeypatch):
    x = np.random.default_rng(0).standard_normal((4, 4)).astype("float32")
    y = np.ones((4, 3), "float32")
    eager = _model()
    initial = eager.get_weights()
    eager.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)

    torch_compile = torch.compile
    monkeypatch.setattr(
        torch, "compile", lambda fn, **kw: torch_compile(fn, backend=_failing_backend, **kw)
    )
    torch._dynamo.reset()
    model = _model()
    model.set_weights(initial)
    model.compile(optimizer=tripod.optimizers.SGD(0.1), loss="mse", jit_compile=True)
    with pytest.warns(
        RuntimeWarning, match="could not compile the train step of model .*no kernel"
    ) as caught:
        model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    assert len([w for w in caught if "could not compile" in str(w.message)]) == 1
    # Nothing the failed attempt did survives: two epochs of one step each, as eagerly.
    for got, want in zip(model.get_weights(), eager.get_weights()):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)


def test_the_warning_names_the_layer_the_failure_is_in():
    model = tripod.Sequential([tripod.Input((5, 3)), tripod.layers.GRU(2, name="my_gru")])
    call = tripod.layers.GRU.call
    frame = traceback.FrameSummary(
        inspect.getsourcefile(call), call.__code__.co_firstlineno + 1, "call"
    )

    class Failure(torch._dynamo.exc.TorchDynamoException):
        real_stack = traceback.StackSummary.from_list([frame])

    where = compiled._where(model, Failure("boom"))
    assert "'my_gru' (GRU)" in where and model.name in where


def test_a_users_own_error_raises_as_it_would_eagerly():
    def step(x):
        return ops.reshape(x, (7,))

    torch._dynamo.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(ValueError, match="reshape"):
            compiled.CompiledStep(step, [], "predict step")(torch.zeros(2, 3))


def test_compiled_predictions_match_eager():
    model = _model()
    x = np.random.default_rng(1).standard_normal((4, 4)).astype("float32")
    expected = to_numpy(model(x))
    model.compile(loss="mse", jit_compile=True)
    np.testing.assert_allclose(model.predict(x, verbose=0), expected, rtol=1e-5, atol=1e-6)


def test_import_tripod_leaves_dynamo_unloaded():
    """torch.compile loads torch._dynamo (with sympy, FSDP and DTensor: ~1 s, ~70 MiB); a
    process that never compiles must not pay for it."""
    code = "import sys, tripod; print('torch._dynamo' in sys.modules, 'sympy' in sys.modules)"
    env = {**os.environ, "TRIPOD_BACKEND": "torch"}
    command = [sys.executable, "-c", code]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert out.stdout.split() == ["False", "False"], out.stderr[-2000:]
