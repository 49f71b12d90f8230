"""A Python int joins an integer tensor in the tensor's dtype (it is weak); one out of that
dtype's range is an error on every backend (NumPy 2's and JAX's OverflowError for element-wise
arithmetic), never a silent wrap-around."""

import numpy as np
import pytest

from tripod import ops

_ARITHMETIC = ("add", "subtract", "multiply", "maximum", "minimum", "bitwise_and", "power")


@pytest.mark.parametrize("name", _ARITHMETIC)
@pytest.mark.parametrize(("dtype", "value"), [("int8", 300), ("uint8", -1), ("int16", 2**15)])
def test_an_int_outside_the_tensors_dtype_is_an_overflow_error(name, dtype, value):
    x = ops.convert_to_tensor(np.array([1, 2], dtype))
    with pytest.raises(OverflowError, match=f"Python integer {value} out of bounds for {dtype}"):
        getattr(ops, name)(x, value)


def test_ints_in_range_keep_the_tensors_dtype_and_wrap_as_numpy_arrays_do():
    x = np.array([1, 2], "uint8")
    got = ops.add(ops.convert_to_tensor(x), 255)
    assert ops.convert_to_numpy(got).dtype == np.uint8
    np.testing.assert_array_equal(ops.convert_to_numpy(got), x + np.uint8(255))
