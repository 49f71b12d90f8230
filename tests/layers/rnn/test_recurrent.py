"""SimpleRNN, LSTM, GRU and RNN: outputs against NumPy recurrences, masking, states, configs."""

import h5py
import numpy as np
import pytest

import tripod
from tests.accelerator import floor
from tests.layers.harness import random_input, run_layer_test, to_numpy
from tests.layers.rnn import reference
from tripod import layers
from tripod.backends import config

TOL = floor(1e-5)  # a TPU's float32 tanh and sigmoid are within 2e-4 (tests/accelerator.py)

FIXTURES = "/work/shared/fixtures/keras3"
X = random_input((2, 5, 3), seed=1)
MASK = np.array([[1, 1, 1, 0, 0], [1, 0, 1, 1, 1]], bool)

CASES = [
    (layers.SimpleRNN, {}, reference.simple_rnn_step, 1),
    (layers.LSTM, {}, reference.lstm_step, 2),
    (layers.GRU, {}, reference.gru_step, 1),
    (layers.GRU, {"reset_after": False}, lambda w: reference.gru_step(w, reset_after=False), 1),
]
IDS = ["simple_rnn", "lstm", "gru", "gru_reset_before"]


def _randomize(layer, seed=0):
    """Give every weight random values (so zero biases don't hide a wrong gate order)."""
    rng = np.random.default_rng(seed)
    layer.set_weights([rng.standard_normal(w.shape).astype("float32") * 0.5 for w in layer.weights])
    return layer.get_weights()


def _zero_states(count, units, batch=2):
    return [np.zeros((batch, units), "float32") for _ in range(count)]


@pytest.mark.parametrize("cls, kwargs, step, n_states", CASES, ids=IDS)
def test_layer_test(cls, kwargs, step, n_states):
    run_layer_test(
        cls,
        {"units": 4, **kwargs},
        input_shape=(2, 5, 3),
        expected_output_shape=(2, 4),
        expected_num_trainable_weights=3,
        expected_num_non_trainable_weights=0,
        expected_num_seed_generators=1,
        supports_masking=True,
    )
    run_layer_test(
        cls,
        {"units": 4, "return_sequences": True, "return_state": True, **kwargs},
        input_shape=(2, 5, 3),
        expected_output_shape=[(2, 5, 4)] + [(2, 4)] * n_states,
    )


@pytest.mark.parametrize("cls, kwargs, step, n_states", CASES, ids=IDS)
@pytest.mark.parametrize("go_backwards", [False, True])
def test_matches_numpy_recurrence(cls, kwargs, step, n_states, go_backwards):
    layer = cls(4, return_sequences=True, return_state=True, go_backwards=go_backwards, **kwargs)
    layer.build((None, 5, 3))
    weights = _randomize(layer)
    outputs, *states = to_numpy(layer(X))
    ref_outputs, _, ref_states = reference.run(
        step(weights), X, _zero_states(n_states, 4), go_backwards=go_backwards
    )
    np.testing.assert_allclose(outputs, ref_outputs, rtol=TOL, atol=TOL)
    for s, r in zip(states, ref_states):
        np.testing.assert_allclose(s, r, rtol=TOL, atol=TOL)


@pytest.mark.parametrize("cls, kwargs, step, n_states", CASES, ids=IDS)
@pytest.mark.parametrize("zero_output", [False, True])
def test_mask_keeps_states_and_outputs(cls, kwargs, step, n_states, zero_output):
    seq = cls(4, return_sequences=True, zero_output_for_mask=zero_output, **kwargs)
    seq.build((None, 5, 3))
    weights = _randomize(seq)
    last = cls(4, zero_output_for_mask=zero_output, **kwargs)
    last.build((None, 5, 3))
    last.set_weights(weights)
    ref_outputs, ref_last, _ = reference.run(
        step(weights), X, _zero_states(n_states, 4), mask=MASK, zero_output_for_mask=zero_output
    )
    np.testing.assert_allclose(to_numpy(seq(X, mask=MASK)), ref_outputs, rtol=TOL, atol=TOL)
    np.testing.assert_allclose(to_numpy(last(X, mask=MASK)), ref_last, rtol=TOL, atol=TOL)


def test_initial_state_and_mask_propagation():
    layer = layers.LSTM(4, return_sequences=True, return_state=True)
    layer.build((None, 5, 3))
    weights = _randomize(layer)
    rng = np.random.default_rng(3)
    h0, c0 = (rng.standard_normal((2, 4)).astype("float32") for _ in range(2))
    outputs, _h, c = to_numpy(layer(X, initial_state=[h0, c0]))
    ref_outputs, _, (_ref_h, ref_c) = reference.run(reference.lstm_step(weights), X, [h0, c0])
    np.testing.assert_allclose(outputs, ref_outputs, rtol=TOL, atol=TOL)
    np.testing.assert_allclose(c, ref_c, rtol=TOL, atol=TOL)
    masks = layer.compute_mask(X, MASK)
    assert masks[0] is MASK and masks[1:] == [None, None]
    assert layers.LSTM(4).compute_mask(X, MASK) is None


def test_symbolic_mask_from_embedding():
    ids = layers.Input(batch_shape=(None, 5), dtype="int32")
    embedded = layers.Embedding(10, 3, mask_zero=True)(ids)
    out = layers.LSTM(4, return_sequences=True)(embedded)
    assert out.shape == (None, 5, 4)
    assert out._keras_mask is not None


def test_keras_lstm_checkpoint_loads():
    """A Keras 3 Embedding(mask_zero) -> LSTM -> Dense model's weights give Keras's predictions."""
    io = np.load(f"{FIXTURES}/lstm_embed.io.npz")
    embedding, lstm, dense = (
        layers.Embedding(20, 5, mask_zero=True),
        layers.LSTM(6),
        layers.Dense(1, activation="sigmoid"),
    )
    x = io["x0"]
    embedded = embedding(x)
    mask = embedding.compute_mask(x, None)
    hidden = lstm(embedded, mask=mask)
    dense(hidden)
    with h5py.File(f"{FIXTURES}/lstm_embed.weights.h5", "r") as f:
        group = f["layers"]
        for layer, store in (
            (embedding, group["embedding/vars"]),
            (lstm.cell, group["lstm/cell/vars"]),
            (dense, group["dense/vars"]),
        ):
            layer.load_own_variables({k: store[k][()] for k in store})
        assert len(group["lstm/vars"]) == 0
    out = dense(lstm(embedding(x), mask=embedding.compute_mask(x, None)))
    np.testing.assert_allclose(to_numpy(out), io["y0"], rtol=TOL, atol=TOL)


def test_keras_layout_and_config():
    layer = layers.LSTM(6)
    layer.build((None, 7, 5))
    assert [(v.name, tuple(v.shape)) for v in layer.weights] == [
        ("kernel", (5, 24)),
        ("recurrent_kernel", (6, 24)),
        ("bias", (24,)),
    ]
    assert layer.cell.name == "lstm_cell"
    bias = layer.cell.bias.numpy()
    np.testing.assert_array_equal(bias, np.r_[np.zeros(6), np.ones(6), np.zeros(12)])
    gru = layers.GRU(6)
    gru.build((None, 7, 5))
    assert [tuple(v.shape) for v in gru.weights] == [(5, 18), (6, 18), (2, 18)]
    assert gru.cell.name == "gru_cell"
    simple = layers.SimpleRNN(6)
    simple.build((None, 7, 5))
    assert [tuple(v.shape) for v in simple.weights] == [(5, 6), (6, 6), (6,)]
    config = layers.LSTM(6).get_config()
    assert {"units", "unit_forget_bias", "zero_output_for_mask", "seed", "dropout"} <= set(config)
    assert "cell" not in config and "use_cudnn" not in config


def test_stacked_cells_and_rnn_config():
    cells = [layers.GRUCell(3), layers.LSTMCell(2)]
    out = run_layer_test(
        layers.RNN,
        {"cell": cells, "return_state": True},
        input_shape=(2, 5, 3),
        expected_output_shape=[(2, 2), [(2, 3)], [(2, 2), (2, 2)]],
        expected_num_trainable_weights=6,
    )
    assert out[0].shape == (2, 2)
    stacked = layers.RNN([layers.SimpleRNNCell(4), layers.LSTMCell(4)], return_sequences=True)
    stacked.build((None, 5, 3))
    weights = _randomize(stacked)
    h1, _, _ = reference.run(reference.simple_rnn_step(weights[:3]), X, _zero_states(1, 4))
    h2, _, _ = reference.run(reference.lstm_step(weights[3:]), h1, _zero_states(2, 4))
    np.testing.assert_allclose(to_numpy(stacked(X)), h2, rtol=TOL, atol=TOL)
    config = layers.RNN(layers.GRUCell(3)).get_config()
    assert config["cell"]["class_name"] == "GRUCell"


def test_stateful_keeps_and_resets_states():
    layer = layers.GRU(4, stateful=True)
    first = to_numpy(layer(X))
    second = to_numpy(layer(X))
    assert not np.allclose(first, second)
    assert len(layer.weights) == 3 and len(layer.states) == 1
    layer.reset_states()
    np.testing.assert_allclose(to_numpy(layer(X)), first, rtol=1e-6, atol=1e-6)


def test_dropout_only_in_training():
    layer = layers.LSTM(4, dropout=0.5, recurrent_dropout=0.5, seed=1)
    inference = to_numpy(layer(X))
    np.testing.assert_allclose(to_numpy(layer(X, training=False)), inference)
    assert not np.allclose(to_numpy(layer(X, training=True)), inference)
    cell = layers.GRUCell(4, dropout=0.5, seed=2)
    out, _states = cell(X[:, 0], [np.zeros((2, 4), "float32")], training=True)
    assert to_numpy(out).shape == (2, 4)


def test_errors():
    with pytest.raises(ValueError, match="units"):
        layers.LSTM(0)
    with pytest.raises(ValueError, match="dropout"):
        layers.GRU(3, dropout=1.5)
    with pytest.raises(ValueError, match="cell"):
        layers.RNN("not a cell")
    with pytest.raises(ValueError, match="time"):
        layers.LSTM(3)(np.zeros((2, 3), "float32"))


@pytest.mark.skipif(config.backend() == "numpy", reason="the numpy backend does not train")
def test_compiled_fit_with_masked_lstm():
    """fit() compiles the step (jax.jit, tf.function): the scan and the mask must trace."""
    model = tripod.Sequential(
        [
            layers.Input(batch_shape=(None, 6), dtype="int32"),
            layers.Embedding(10, 4, mask_zero=True),
            layers.Bidirectional(
                layers.LSTM(3, dropout=0.2, recurrent_dropout=0.2, return_sequences=True)
            ),
            layers.GRU(3),
            layers.Dense(1),
        ]
    )
    model.compile(optimizer="sgd", loss="mse")
    x = random_input((8, 6), "int32", high=10)
    y = random_input((8, 1))
    history = model.fit(x, y, epochs=2, batch_size=4, verbose=0)
    assert np.isfinite(history.history["loss"]).all()
    assert model.predict(x, verbose=0).shape == (8, 1)
