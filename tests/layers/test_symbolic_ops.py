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
