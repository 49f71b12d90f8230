"""Public ops on symbolic tensors (`tripod.Input`), on every backend: static facts come back at
once, as Keras gives them, and ops computing a Python number give a scalar KerasTensor."""

import numpy as np

import tripod
from tripod import ops


def test_shape_and_dtype_of_a_symbolic_tensor_are_its_static_facts():
    x = tripod.Input((None, 3))
    assert ops.shape(x) == (None, None, 3)
    assert ops.dtype(x) == "float32"
    assert ops.dtype(tripod.Input((2,), dtype="int32")) == "int32"


def test_ndim_and_size_of_a_symbolic_tensor_are_scalar_tensors():
    x = tripod.Input((None, 3))
    for value in (ops.ndim(x), ops.size(x)):
        assert isinstance(value, tripod.KerasTensor)
        assert (value.shape, value.dtype) == ((), "int32")


def test_a_model_built_with_a_static_shape_runs():
    inputs = tripod.Input((4, 3))
    steps = ops.shape(inputs)[1]
    outputs = ops.reshape(inputs, (-1, steps * 3))
    model = tripod.Model(inputs, outputs)
    x = np.arange(24, dtype="float32").reshape(2, 4, 3)
    np.testing.assert_array_equal(ops.convert_to_numpy(model(x)), x.reshape(2, 12))


def test_an_unknown_length_is_inferred_for_code_that_only_runs_at_small_sizes():
    """A position embedding of 8 entries gathers `arange(length)`: tracing an unknown length at
    the usual stand-in sizes (7, 13) would index past it; smaller ones serve (keras.io's NMT
    transformer builds its decoder so)."""

    class Positions(tripod.layers.Layer):
        def __init__(self):
            super().__init__()
            self.table = tripod.layers.Embedding(8, 4)

        def call(self, tokens):
            length = tripod.ops.shape(tokens)[-1]
            return self.table(tripod.ops.arange(0, length, 1))

    out = Positions()(tripod.Input((None,), dtype="int32"))
    assert tuple(out.shape) == (None, 4)


def test_activation_functions_record_on_symbolic_tensors_and_save(tmp_path):
    """`tripod.activations.gelu(x)` in a functional graph records a node, as in Keras (KerasHub's
    Whisper builds its stem so); options are kept, the node is not a listed layer, and the model
    loads back from a `.keras` file."""
    inputs = tripod.Input((4,))
    hidden = tripod.activations.relu(inputs, max_value=1.0)
    outputs = tripod.activations.gelu(hidden, approximate=True)
    assert tripod.activations.linear(inputs) is inputs
    model = tripod.Model(inputs, outputs)
    assert [type(layer).__name__ for layer in model.layers] == ["InputLayer"]
    x = np.array([[-1.0, 0.5, 2.0, 0.0]], "float32")
    h = np.clip(x, 0.0, 1.0)
    expected = 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h**3)))
    np.testing.assert_allclose(ops.convert_to_numpy(model(x)), expected, rtol=1e-6)
    model.save(tmp_path / "m.keras")
    loaded = tripod.saving.load_model(tmp_path / "m.keras")
    np.testing.assert_allclose(ops.convert_to_numpy(loaded(x)), expected, rtol=1e-6)


def test_a_sliced_symbolic_tensor_saves_and_loads(tmp_path):
    """`x[:, -1, ...]` keeps slices and an Ellipsis as constants of its node: the `.keras` file
    writes them as Keras does, and the key reads back as the tuple it was."""
    inputs = tripod.Input((3, 2))
    model = tripod.Model(inputs, inputs[:, -1, ...] * 2.0)
    model.save(tmp_path / "m.keras")
    loaded = tripod.saving.load_model(tmp_path / "m.keras")
    x = np.arange(12, dtype="float32").reshape(2, 3, 2)
    np.testing.assert_array_equal(ops.convert_to_numpy(loaded(x)), x[:, -1] * 2)
