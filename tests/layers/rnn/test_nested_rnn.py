"""`RNN` over a cell with nested inputs, states and outputs ("Working with RNNs", last section):
the cell gets each step's inputs in their structure, and its structured outputs and states come
back as the layer's, checked against NumPy loops."""

import numpy as np
import pytest

import tripod as keras
from tripod import ops
from tripod.backends import config

BACKEND = config.backend()
needs_training = pytest.mark.skipif(
    BACKEND == "numpy", reason="the numpy backend is inference-only"
)
U1, U2, U3 = 2, 3, 4  # state / output sizes: a vector of U1, a (U2, U3) matrix
I1, I2, I3 = 5, 2, 3  # input sizes: a vector of I1, a (I2, I3) matrix
DECAY = 0.5


class NestedCell(keras.layers.Layer):
    """The guide's cell, its outputs also fed by the states: inputs (vector, matrix), states and
    outputs (vector of U1, U2 x U3 matrix)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.state_size = [U1, U2 * U3]
        self.output_size = [U1, (U2, U3)]

    def build(self, input_shapes):
        first, second = input_shapes
        self.kernel_1 = self.add_weight(
            shape=(first[1], U1), initializer="uniform", name="kernel_1"
        )
        self.kernel_2_3 = self.add_weight(
            shape=(second[1], second[2], U2, U3), initializer="uniform", name="kernel_2_3"
        )

    def get_initial_state(self, batch_size):
        return [ops.zeros((batch_size, U1)), ops.zeros((batch_size, U2, U3))]

    def call(self, inputs, states):
        vector, matrix = inputs
        state_1, state_2_3 = states
        output_1 = ops.matmul(vector, self.kernel_1) + DECAY * state_1
        output_2_3 = ops.einsum("bij,ijkl->bkl", matrix, self.kernel_2_3) + DECAY * state_2_3
        return (output_1, output_2_3), (state_1 + output_1, state_2_3 + output_2_3)


class DictCell(keras.layers.Layer):
    """A cell taking a dict of inputs per step (pen location and pressure) and one vector state."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.state_size = units
        self.output_size = units

    def build(self, input_shapes):
        self.location = self.add_weight(
            shape=(input_shapes["location"][1], self.state_size), name="location"
        )
        self.pressure = self.add_weight(
            shape=(input_shapes["pressure"][1], self.state_size), name="pressure"
        )

    def call(self, inputs, states):
        h = ops.tanh(
            inputs["location"] @ self.location + inputs["pressure"] @ self.pressure + states[0]
        )
        return h, [h]


def _sequences(batch=4, time=3, seed=0):
    rng = np.random.default_rng(seed)
    return (
        rng.normal(size=(batch, time, I1)).astype("float32"),
        rng.normal(size=(batch, time, I2, I3)).astype("float32"),
    )


def _numpy_nested(cell, vectors, matrices, backwards=False, keep=None):
    """(per-step outputs (vector, matrix) stacked on axis 1, final states) of NestedCell."""
    k1, k23 = (keras.ops.convert_to_numpy(w) for w in (cell.kernel_1, cell.kernel_2_3))
    batch, time = vectors.shape[:2]
    s1, s23 = np.zeros((batch, U1), "float32"), np.zeros((batch, U2, U3), "float32")
    o1, o23 = np.zeros_like(s1), np.zeros_like(s23)
    outputs = []
    for t in reversed(range(time)) if backwards else range(time):
        new_o1 = vectors[:, t] @ k1 + DECAY * s1
        new_o23 = np.einsum("bij,ijkl->bkl", matrices[:, t], k23) + DECAY * s23
        kept = np.ones(batch, bool) if keep is None else keep[:, t]
        s1 = np.where(kept[:, None], s1 + new_o1, s1)
        s23 = np.where(kept[:, None, None], s23 + new_o23, s23)
        o1, o23 = np.where(kept[:, None], new_o1, o1), np.where(kept[:, None, None], new_o23, o23)
        outputs.append((o1, o23))
    return (np.stack([o[0] for o in outputs], 1), np.stack([o[1] for o in outputs], 1)), (s1, s23)


def _nested_model(**rnn_kwargs):
    first, second = keras.Input((None, I1)), keras.Input((None, I2, I3))
    rnn = keras.layers.RNN(NestedCell(), **rnn_kwargs)
    return keras.Model([first, second], rnn((first, second))), rnn


def _close(actual, expected):
    np.testing.assert_allclose(keras.ops.convert_to_numpy(actual), expected, rtol=1e-5, atol=1e-5)


def test_the_last_nested_output_matches_a_numpy_loop():
    model, rnn = _nested_model()
    assert [tuple(t.shape) for t in model.outputs] == [(None, U1), (None, U2, U3)]
    vectors, matrices = _sequences()
    (out_1, out_2_3), _ = _numpy_nested(rnn.cell, vectors, matrices)
    predicted = model.predict([vectors, matrices], verbose=0)
    _close(predicted[0], out_1[:, -1])
    _close(predicted[1], out_2_3[:, -1])


@pytest.mark.parametrize("go_backwards", [False, True])
def test_nested_sequences_and_states_match_a_numpy_loop(go_backwards):
    model, rnn = _nested_model(return_sequences=True, return_state=True, go_backwards=go_backwards)
    expected_shapes = [(None, None, U1), (None, None, U2, U3), (None, U1), (None, U2, U3)]
    assert [tuple(t.shape) for t in model.outputs] == expected_shapes
    vectors, matrices = _sequences()
    (out_1, out_2_3), (s1, s23) = _numpy_nested(rnn.cell, vectors, matrices, backwards=go_backwards)
    (seq_1, seq_2_3), state_1, state_2_3 = rnn((vectors, matrices))
    _close(seq_1, out_1)
    _close(seq_2_3, out_2_3)
    _close(state_1, s1)
    _close(state_2_3, s23)


def test_masked_steps_keep_every_nested_state_and_output():
    rnn = keras.layers.RNN(NestedCell(), return_sequences=True, return_state=True)
    vectors, matrices = _sequences()
    keep = np.array([[1, 1, 1], [1, 0, 1], [1, 1, 0], [0, 1, 1]], bool)
    (seq_1, seq_2_3), state_1, state_2_3 = rnn((vectors, matrices), mask=keep)
    (out_1, out_2_3), (s1, s23) = _numpy_nested(rnn.cell, vectors, matrices, keep=keep)
    _close(seq_1, out_1)
    _close(seq_2_3, out_2_3)
    _close(state_1, s1)
    _close(state_2_3, s23)


def test_a_dict_of_inputs_reaches_the_cell_as_a_dict_per_step():
    rng = np.random.default_rng(1)
    inputs = {
        "location": rng.normal(size=(4, 3, 2)).astype("float32"),
        "pressure": rng.normal(size=(4, 3, 1)).astype("float32"),
    }
    rnn = keras.layers.RNN(DictCell(3), return_sequences=True)
    outputs = rnn(inputs)
    location, pressure = (
        keras.ops.convert_to_numpy(w) for w in (rnn.cell.location, rnn.cell.pressure)
    )
    h, expected = np.zeros((4, 3), "float32"), []
    for t in range(3):
        h = np.tanh(inputs["location"][:, t] @ location + inputs["pressure"][:, t] @ pressure + h)
        expected.append(h)
    _close(outputs, np.stack(expected, 1))
    symbolic = rnn({"location": keras.Input((None, 2)), "pressure": keras.Input((None, 1))})
    assert tuple(symbolic.shape) == (None, None, 3)


def test_a_nested_input_without_a_time_axis_is_a_clear_error():
    rnn = keras.layers.RNN(NestedCell())
    with pytest.raises(
        ValueError,
        match=r"RNN 'rnn\w*': expected inputs of shape \(batch, time, features...\), received shape \(None, 5\)",
    ):
        rnn((keras.Input((I1,)), keras.Input((None, I2, I3))))


@needs_training
def test_the_guide_model_trains_on_nested_targets():
    model, _ = _nested_model()
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
    vectors, matrices = _sequences(batch=64, time=4, seed=2)
    rng = np.random.default_rng(3)
    targets = [rng.random((64, U1)).astype("float32"), rng.random((64, U2, U3)).astype("float32")]
    history = model.fit([vectors, matrices], targets, batch_size=16, epochs=3, verbose=0)
    losses = history.history["loss"]
    assert np.all(np.isfinite(losses)) and losses[-1] < losses[0], losses
