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
