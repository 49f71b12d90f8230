"""ConvLSTM1D/2D/3D: the layer test, a NumPy ConvLSTM1D recurrence, channels_first, errors."""

import numpy as np
import pytest

from tests.layers.harness import random_input, run_layer_test, to_numpy
from tests.layers.rnn import reference
from tripod import layers


@pytest.mark.parametrize(
    "cls, shape, expected",
    [
        (layers.ConvLSTM1D, (2, 3, 6, 2), (2, 4, 3)),
        (layers.ConvLSTM2D, (2, 3, 5, 5, 2), (2, 3, 3, 3)),
        (layers.ConvLSTM3D, (2, 2, 4, 4, 4, 1), (2, 2, 2, 2, 3)),
    ],
)
def test_layer_test(cls, shape, expected):
    run_layer_test(
        cls,
        {"filters": 3, "kernel_size": 3},
        input_shape=shape,
        expected_output_shape=expected,
        expected_num_trainable_weights=3,
        expected_num_seed_generators=1,
        supports_masking=True,
    )


@pytest.mark.parametrize("padding", ["valid", "same"])
def test_conv_lstm1d_matches_numpy(padding):
    x = random_input((2, 4, 6, 2), seed=5)
    layer = layers.ConvLSTM1D(3, 3, padding=padding, return_sequences=True, return_state=True)
    layer.build(x.shape)
    rng = np.random.default_rng(1)
    layer.set_weights([rng.standard_normal(w.shape).astype("float32") * 0.4 for w in layer.weights])
    steps = 6 if padding == "same" else 4
    zeros = [np.zeros((2, steps, 3), "float32")] * 2
    ref_seq, _, (_ref_h, ref_c) = reference.run(
        reference.conv_lstm1d_step(layer.get_weights(), padding), x, zeros
    )
    seq, _h, c = to_numpy(layer(x))
    np.testing.assert_allclose(seq, ref_seq, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(c, ref_c, rtol=1e-5, atol=1e-5)


def test_conv_lstm2d_channels_first_and_layout():
    x = random_input((2, 3, 5, 5, 2), seed=6)
    last = layers.ConvLSTM2D(4, 3, padding="same")
    first = layers.ConvLSTM2D(4, 3, padding="same", data_format="channels_first")
    last.build(x.shape)
    first.build((2, 3, 2, 5, 5))
    assert [tuple(w.shape) for w in first.weights] == [(3, 3, 2, 16), (3, 3, 4, 16), (16,)]
    first.set_weights(last.get_weights())
    expected = np.moveaxis(to_numpy(last(x)), -1, 1)
    np.testing.assert_allclose(
        to_numpy(first(np.moveaxis(x, -1, 2))), expected, rtol=1e-5, atol=1e-5
    )
    assert first.compute_output_shape((None, 3, 2, 5, 5)) == (None, 4, 5, 5)
    assert last.cell.name == "conv_lstm_cell"
    config = last.get_config()
    assert config["kernel_size"] == (3, 3) and config["data_format"] == "channels_last"


def test_conv_lstm_errors():
    with pytest.raises(ValueError, match="filters"):
        layers.ConvLSTM2D(0, 3)
    with pytest.raises(ValueError, match="rank 5"):
        layers.ConvLSTM2D(2, 3)(np.zeros((2, 3, 4, 4), "float32"))
