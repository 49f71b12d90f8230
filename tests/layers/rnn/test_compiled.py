"""Recurrent models compiled with jit_compile=True (torch.compile on torch, XLA elsewhere) give
the eager results, also when jit_compile=True comes from a saved model's compile config."""

import numpy as np
import pytest

import tripod
from tests.layers.harness import TRAINS, check_compiled_step, random_input, to_numpy
from tripod import layers

X = random_input((2, 5, 3), seed=7)


def _bidirectional_gru():
    return tripod.Sequential(
        [tripod.Input((5, 3)), layers.Bidirectional(layers.GRU(4, return_sequences=True))]
    )


def test_bidirectional_gru_predicts_with_jit_compile(tmp_path):
    # torch.compile once raised "ops.moveaxis: ops.transpose: axes [0, 0, 1, 2] are not a
    # permutation of the 3 dims" here: it traced axis ints as symbols and mis-evaluated them.
    model = _bidirectional_gru()
    expected = to_numpy(model(X))
    model.compile(optimizer="sgd", loss="mse", jit_compile=True)
    np.testing.assert_allclose(model.predict(X, verbose=0), expected, rtol=1e-5, atol=1e-5)

    path = str(tmp_path / "bigru.keras")
    model.save(path)
    loaded = tripod.saving.load_model(path)
    assert loaded.get_compile_config()["jit_compile"] is True
    np.testing.assert_allclose(loaded.predict(X, verbose=0), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(not TRAINS, reason="the numpy backend is inference-only")
@pytest.mark.slow  # compiled GRU training: the layer tests; on torch test_compiled_recurrent
def test_bidirectional_gru_trains_with_jit_compile_as_eagerly():
    layer = layers.Bidirectional(layers.GRU(4, return_sequences=True, reset_after=False))
    check_compiled_step(layer, X)
