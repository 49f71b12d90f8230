"""LSTM and GRU under `jit_compile=True`: torch.compile calls their fused kernels as opaque
eager functions, and the compiled model predicts and trains as the eager one does."""

import warnings

import numpy as np
import pytest

import tripod
from tests.layers.harness import random_input
from tripod import layers
from tripod.backends import config

if config.backend() != "torch":
    pytest.skip("torch.compile steps", allow_module_level=True)

import torch  # only once the torch backend is known to be active

X = random_input((4, 6, 3), seed=3)
Y = random_input((4, 5), seed=4)


def _run(model, initial, **compile_kwargs):
    """(predictions, losses, weights after two SGD steps) of `model` from weights `initial`."""
    model.set_weights(initial)
    model.compile(optimizer=tripod.optimizers.SGD(0.5), loss="mse", **compile_kwargs)
    predictions = model.predict(X, batch_size=4, verbose=0)
    history = model.fit(X, Y, batch_size=2, epochs=1, verbose=0, shuffle=False)
    return [predictions, np.asarray(history.history["loss"]), *model.get_weights()]


@pytest.mark.parametrize("kernel", ["lstm", "gru"])
def test_compiled_recurrent_layer_runs_its_kernel_and_matches_eager(kernel, monkeypatch):
    model = tripod.Sequential([tripod.Input((6, 3)), getattr(layers, kernel.upper())(5)])
    initial = model.get_weights()
    eager = _run(model, initial, run_eagerly=True)
    native, calls = getattr(torch, kernel), []

    def counted(*args):
        calls.append(args)
        return native(*args)

    monkeypatch.setattr(torch, kernel, counted)
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="torch.compile could not compile")
        compiled = _run(model, initial, jit_compile=True)
    # predict (1 batch) and fit (2 batches) each ran the fused kernel, not a traced loop (the
    # trainer may run the model once more eagerly, to build it)
    assert len(calls) >= 3, f"torch.{kernel} ran {len(calls)} times in the compiled steps"
    for i, (got, want) in enumerate(zip(compiled, eager)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=f"result {i}")
    assert not np.allclose(compiled[2], initial[0])  # the kernel's gradients reached the weights
