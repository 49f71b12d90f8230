"""Bidirectional and TimeDistributed: merge modes, states, masks, configs, against NumPy."""

import numpy as np
import pytest

from tests.layers.harness import random_input, run_layer_test, to_numpy
from tests.layers.rnn import reference
from tripod import layers

X = random_input((2, 5, 3), seed=4)
MASK = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], bool)
MERGES = {
    "concat": lambda f, b: np.concatenate([f, b], axis=-1),
    "sum": lambda f, b: f + b,
    "ave": lambda f, b: (f + b) / 2,
    "mul": lambda f, b: f * b,
}


@pytest.mark.parametrize("merge_mode", ["concat", None])
def test_bidirectional_layer_test(merge_mode):
    units = 6 if merge_mode == "concat" else 3
    expected = [(2, 5, 3), (2, 5, 3)] if merge_mode is None else (2, 5, units)
    run_layer_test(
        layers.Bidirectional,
        {"layer": layers.LSTM(3, return_sequences=True), "merge_mode": merge_mode},
        input_shape=(2, 5, 3),
        expected_output_shape=expected,
        expected_num_trainable_weights=6,
        expected_num_seed_generators=2,
        supports_masking=True,
    )


@pytest.mark.parametrize("merge_mode", sorted(MERGES))
@pytest.mark.parametrize("return_sequences", [False, True])
def test_bidirectional_matches_two_numpy_passes(merge_mode, return_sequences):
    layer = layers.Bidirectional(
        layers.GRU(3, return_sequences=return_sequences), merge_mode=merge_mode
    )
    layer.build((None, 5, 3))
    rng = np.random.default_rng(0)
    layer.set_weights([rng.standard_normal(w.shape).astype("float32") * 0.5 for w in layer.weights])
    weights = layer.get_weights()
    zeros = [np.zeros((2, 3), "float32")]
    zero_output = (
        return_sequences  # Bidirectional zeroes masked steps of returned sequences, as Keras
    )
    f_seq, f_last, _ = reference.run(
        reference.gru_step(weights[:3]), X, zeros, mask=MASK, zero_output_for_mask=zero_output
    )
    b_seq, b_last, _ = reference.run(
        reference.gru_step(weights[3:]),
        X,
        zeros,
        mask=MASK,
        go_backwards=True,
        zero_output_for_mask=zero_output,
    )
    expected = (
        MERGES[merge_mode](f_seq, b_seq[:, ::-1])
        if return_sequences
        else MERGES[merge_mode](f_last, b_last)
    )
    np.testing.assert_allclose(to_numpy(layer(X, mask=MASK)), expected, rtol=1e-5, atol=1e-5)


def test_bidirectional_states_names_and_config():
    layer = layers.Bidirectional(layers.LSTM(2, return_state=True, name="enc"))
    config = layer.get_config()
    assert (layer.forward_layer.name, layer.backward_layer.name) == ("forward_enc", "backward_enc")
    assert layer.backward_layer.go_backwards and not layer.forward_layer.go_backwards
    out = to_numpy(layer(X))
    assert [o.shape for o in out] == [(2, 4)] + [(2, 2)] * 4
    np.testing.assert_allclose(out[0], np.concatenate([out[1], out[3]], axis=-1), rtol=1e-6)
    assert set(config) == {"name", "trainable", "dtype", "merge_mode", "layer", "backward_layer"}
    clone = layers.Bidirectional.from_config(config)
    assert (clone.forward_layer.name, clone.backward_layer.name) == ("forward_enc", "backward_enc")
    assert clone.get_config() == config
    assert layer.compute_mask(X, MASK) == [None] * 5
    states = [np.ones((2, 2), "float32")] * 4
    assert not np.allclose(to_numpy(layer(X, initial_state=states))[0], out[0])


def test_bidirectional_errors():
    with pytest.raises(ValueError, match="merge_mode"):
        layers.Bidirectional(layers.LSTM(2), merge_mode="max")
    with pytest.raises(ValueError, match="go_backwards"):
        layers.Bidirectional(layers.LSTM(2), backward_layer=layers.LSTM(2))
    with pytest.raises(ValueError, match="return_sequences"):
        layers.Bidirectional(
            layers.LSTM(2), backward_layer=layers.LSTM(2, go_backwards=True, return_sequences=True)
        )
    with pytest.raises(ValueError, match="recurrent layer"):
        layers.Bidirectional(layers.Dense(2))
    with pytest.raises(ValueError, match="layer must be a recurrent layer.*received None"):
        layers.Bidirectional(None)


def test_time_distributed_dense():
    out = run_layer_test(
        layers.TimeDistributed,
        {"layer": layers.Dense(4)},
        input_shape=(2, 5, 3),
        expected_output_shape=(2, 5, 4),
        expected_num_trainable_weights=2,
        supports_masking=True,
    )
    layer = layers.TimeDistributed(layers.Dense(4))
    result = to_numpy(layer(X))
    kernel, bias = layer.get_weights()
    np.testing.assert_allclose(result, X @ kernel + bias, rtol=1e-5, atol=1e-5)
    assert out.shape == (2, 5, 4)
    assert layer.compute_mask(X, MASK) is MASK
    config = layer.get_config()
    assert config["layer"]["class_name"] == "Dense"


def test_time_distributed_rank_error():
    with pytest.raises(ValueError, match="rank"):
        layers.TimeDistributed(layers.Dense(2))(np.zeros((2, 3), "float32"))
