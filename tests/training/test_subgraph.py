"""`Model(inputs, outputs)` from intermediate tensors of a graph, as Keras 3 allows: the layers
between are called again on new Inputs, sharing their weights with the whole model."""

import numpy as np
import pytest

import tripod
from tripod import layers, ops


def _graph():
    """(input, hidden tensor, output, the two Dense layers) of a small MLP."""
    inputs = tripod.Input((3,))
    first, second = layers.Dense(4, name="first"), layers.Dense(2, name="second")
    hidden = first(inputs)
    return inputs, hidden, second(layers.ReLU(name="relu")(hidden)), first, second


def test_a_model_from_an_intermediate_tensor_computes_the_tail_of_the_graph():
    _, hidden, outputs, _, second = _graph()
    tail = tripod.Model(hidden, outputs)
    assert [layer.name for layer in tail.layers][1:] == ["relu", "second"]
    assert tuple(tail.input.shape) == (None, 4)
    x = np.arange(8, dtype="float32").reshape(2, 4) - 3.0
    expected = ops.convert_to_numpy(second(np.maximum(x, 0.0)))
    np.testing.assert_allclose(ops.convert_to_numpy(tail(x)), expected, rtol=1e-6)


def test_the_whole_model_and_the_tail_share_their_layers():
    inputs, hidden, outputs, _, second = _graph()
    whole, tail = tripod.Model(inputs, outputs), tripod.Model(hidden, outputs)
    assert tail.get_layer("second") is whole.get_layer("second") is second
    second.kernel.assign(np.ones((4, 2), "float32"))
    np.testing.assert_allclose(
        ops.convert_to_numpy(tail(np.ones((1, 4), "float32"))),
        ops.convert_to_numpy(second(np.ones((1, 4), "float32"))),
    )


def test_inputs_mixing_an_input_and_an_intermediate_tensor():
    a, b = tripod.Input((2,)), tripod.Input((2,))
    scaled = layers.Rescaling(2.0)(b)
    summed = layers.Add()([a, scaled])
    model = tripod.Model([a, scaled], summed)
    out = model([np.ones((1, 2), "float32"), np.full((1, 2), 5.0, "float32")])
    np.testing.assert_allclose(ops.convert_to_numpy(out), [[6.0, 6.0]])


def test_an_output_the_inputs_do_not_reach_is_a_clear_error():
    inputs, hidden, _, _, _ = _graph()
    other = layers.Dense(1)(inputs)
    with pytest.raises(ValueError, match="not among the model's inputs"):
        tripod.Model(hidden, [layers.Dense(1)(hidden), other])


def test_a_model_from_an_intermediate_tensor_saves_and_loads(tmp_path):
    _, hidden, outputs, _, _ = _graph()
    tail = tripod.Model(hidden, outputs)
    x = np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4)
    tail.save(tmp_path / "tail.keras")
    loaded = tripod.saving.load_model(tmp_path / "tail.keras")
    np.testing.assert_allclose(ops.convert_to_numpy(loaded(x)), ops.convert_to_numpy(tail(x)))
