"""GRU through the backend's fused kernel (`ops.gru_sequence`, torch) and, where there is none,
through the cell scan, against a NumPy GRU and against the same cell scanned step by step
(`RNN(GRUCell)`): outputs, final states and gradients. Cells the kernel does not compute (and
masked or dropped-out calls) keep the cell scan."""

import numpy as np
import pytest

import tripod
from tests.backends.ops.harness import stored_dtype
from tests.layers.harness import TRAINS, random_input, to_numpy
from tests.layers.rnn import reference
from tripod import layers
from tripod.backends import active, config
from tripod.backends.common import fast_paths

ops = active()

X = random_input((3, 6, 4), seed=2, dtype="float64")
H0 = random_input((3, 5), seed=3, dtype="float64")
TOLERANCE = {"float32": 1e-5, "float64": 1e-12}
_ONES = [np.ones(shape, "float32") for shape in ((1, 1, 1), (1, 1), (1, 3), (1, 3))]
#: the paths of a standard GRU on this backend (only the scan where it has no kernel)
PATHS = ["kernel", "scan"] if ops.gru_sequence(*_ONES, None) is not None else ["scan"]
CONFIGS = [{}, {"go_backwards": True}, {"use_bias": False}]
CONFIG_IDS = ["plain", "backwards", "no_bias"]


@pytest.fixture(params=PATHS)
def path(request, monkeypatch):
    """Which path a standard GRU takes: "kernel", the backend's own `gru_sequence`; "scan", the
    hook's default (no kernel), so the layer scans its cell."""
    if request.param == "scan":
        monkeypatch.setattr(ops, "gru_sequence", lambda *args: None)
    return request.param


@pytest.fixture
def cell_calls(monkeypatch):
    """A list that grows by one each time a `GRUCell` step runs (or is traced)."""
    calls, original = [], layers.GRUCell.call

    def counted(self, inputs, states, training=False):
        calls.append(1)
        return original(self, inputs, states, training=training)

    monkeypatch.setattr(layers.GRUCell, "call", counted)
    return calls


def _weights(layer, seed=0):
    """Fixed random weights for a built `layer`, in its dtype."""
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal(w.shape) * 0.5).astype(w.dtype) for w in layer.weights]


def _pair(dtype, **kwargs):
    """A GRU layer and an RNN over a GRUCell with the same random weights."""
    cell_kwargs = {k: kwargs[k] for k in ("use_bias", "reset_after") if k in kwargs}
    fused = layers.GRU(5, return_sequences=True, return_state=True, dtype=dtype, **kwargs)
    scanned = layers.RNN(
        layers.GRUCell(5, dtype=dtype, **cell_kwargs),
        return_sequences=True,
        return_state=True,
        go_backwards=kwargs.get("go_backwards", False),
        dtype=dtype,
    )
    fused.build((None, 6, 4))
    scanned.build((None, 6, 4))
    weights = _weights(fused)
    fused.set_weights(weights)
    scanned.set_weights(weights)
    return fused, scanned, weights


def _numpy_gru(weights, x, h0, reset_after=True, mask=None, go_backwards=False):
    """(outputs, last h) of the NumPy GRU; a missing bias is zeros."""
    if len(weights) == 2:
        width = weights[0].shape[1]
        weights = [*weights, np.zeros((2, width) if reset_after else (width,))]
    step = reference.gru_step(weights, reset_after=reset_after)
    outputs, _, states = reference.run(step, x, [h0], mask=mask, go_backwards=go_backwards)
    return outputs, states[0]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kwargs", CONFIGS, ids=CONFIG_IDS)
def test_gru_equals_numpy(path, cell_calls, dtype, kwargs):
    if stored_dtype(dtype) != dtype:
        pytest.skip(f"{dtype} is stored as {stored_dtype(dtype)} on this backend")
    layer, _, weights = _pair(dtype, **kwargs)
    x, h0 = X.astype(dtype), H0.astype(dtype)
    outputs, h = layer(x, initial_state=[h0])
    want_outputs, want_h = _numpy_gru(
        [w.astype("float64") for w in weights], X, H0, go_backwards=kwargs.get("go_backwards")
    )
    tol = TOLERANCE[dtype]
    np.testing.assert_allclose(to_numpy(outputs), want_outputs, rtol=tol, atol=tol)
    np.testing.assert_allclose(to_numpy(h), want_h, rtol=tol, atol=tol)
    assert to_numpy(outputs).dtype == dtype
    assert bool(cell_calls) == (path == "scan")  # the kernel does not step the cell


def test_the_kernel_runs_where_the_backend_has_one():
    layer, _, _ = _pair("float32")
    cell = layer.cell
    args = (X.astype("float32"), H0.astype("float32"), cell.kernel.value)
    fused = ops.gru_sequence(*args, cell.recurrent_kernel.value, cell.bias.value)
    assert (fused is not None) == (config.backend() == "torch" and fast_paths.enabled())
    half = [ops.cast(a, "float16") for a in args]
    assert ops.gru_sequence(*half, ops.cast(cell.recurrent_kernel.value, "float16"), None) is None


def _loss_and_grads(layer, x, h0):
    """A loss of the outputs and final state, and its gradients for the weights, the inputs and
    the initial state."""
    inputs = [ops.Variable(v) for v in (x, h0)]

    def loss():
        outputs, h = layer(inputs[0].value, initial_state=[inputs[1].value])
        weights = ops.convert_to_tensor(np.linspace(-1.0, 1.0, 5), dtype=ops.dtype(h))
        return ops.add(ops.sum(ops.square(outputs)), ops.sum(ops.multiply(h, weights)))

    value, grads = tripod.value_and_grad(loss, layer.trainable_weights + inputs)()
    return to_numpy(value), [to_numpy(g) for g in grads]


@pytest.mark.skipif(not TRAINS, reason="the numpy backend has no gradients")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kwargs", CONFIGS, ids=CONFIG_IDS)
def test_gru_gradients_equal_the_scanned_cell(path, dtype, kwargs):
    fused, scanned, _ = _pair(dtype, **kwargs)
    x, h0 = X.astype(dtype), H0.astype(dtype)
    value, grads = _loss_and_grads(fused, x, h0)
    want_value, want_grads = _loss_and_grads(scanned, x, h0)
    tol = TOLERANCE[dtype]
    np.testing.assert_allclose(value, want_value, rtol=tol)
    assert len(grads) == len(want_grads) == len(fused.trainable_weights) + 2
    for got, want in zip(grads, want_grads):
        assert np.abs(want).max() > 1e-3  # every gradient is exercised
        np.testing.assert_allclose(got, want, rtol=10 * tol, atol=tol)


@pytest.mark.parametrize("return_sequences", [False, True])
def test_return_state_and_last_output(path, return_sequences):
    layer = layers.GRU(5, return_sequences=return_sequences, return_state=True)
    layer.build((None, 6, 4))
    weights = _weights(layer)
    layer.set_weights(weights)
    output, h = layer(X.astype("float32"))
    want_outputs, want_h = _numpy_gru(weights, X, np.zeros_like(H0))
    want = want_outputs if return_sequences else want_h
    np.testing.assert_allclose(to_numpy(output), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(to_numpy(h), want_h, rtol=1e-5, atol=1e-5)


def test_stateful_gru_carries_its_state_between_calls(path):
    layer = layers.GRU(5, stateful=True)
    layer.build((3, 3, 4))
    weights = _weights(layer)
    layer.set_weights(weights)
    layer(X[:, :3].astype("float32"))
    second = layer(X[:, 3:].astype("float32"))
    _, want_h = _numpy_gru(weights, X, np.zeros_like(H0))
    np.testing.assert_allclose(to_numpy(second), want_h, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("reset_after", [False, True], ids=["reset_before", "masked"])
def test_other_cells_keep_the_cell_scan(cell_calls, reset_after):
    mask = np.ones((3, 6), bool)
    mask[0, 4:] = mask[2, 1:] = False
    layer, _, weights = _pair("float32", reset_after=reset_after)
    call_mask = mask if reset_after else None  # reset_after=True scans only when masked
    outputs, h = layer(X.astype("float32"), initial_state=[H0.astype("float32")], mask=call_mask)
    want_outputs, want_h = _numpy_gru(weights, X, H0, reset_after=reset_after, mask=call_mask)
    np.testing.assert_allclose(to_numpy(outputs), want_outputs, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(to_numpy(h), want_h, rtol=1e-5, atol=1e-5)
    assert cell_calls


@pytest.mark.skipif(not TRAINS, reason="the numpy backend does not train")
def test_dropout_in_training_keeps_the_cell_scan(cell_calls):
    layer = layers.GRU(5, dropout=0.5, recurrent_dropout=0.5, seed=1)
    x = X.astype("float32")
    inference = to_numpy(layer(x))
    assert bool(cell_calls) == ("kernel" not in PATHS)  # dropout is off: the kernel may run
    stepped = len(cell_calls)
    training = to_numpy(layer(x, training=True))
    assert len(cell_calls) > stepped
    assert not np.allclose(training, inference)
