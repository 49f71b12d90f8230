"""A Python int joins an integer tensor in the tensor's dtype (it is weak); one out of that
dtype's range is never a silent wrap-around on any backend: element-wise arithmetic raises NumPy
2's and JAX's OverflowError, and a comparison compares it by value, as NumPy 2 does."""

import operator

import numpy as np
import pytest

import tripod
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


_OPERATORS = {
    "equal": operator.eq,
    "not_equal": operator.ne,
    "less": operator.lt,
    "less_equal": operator.le,
    "greater": operator.gt,
    "greater_equal": operator.ge,
}
_COMPARISONS = tuple(_OPERATORS)
_EXTREMES = {
    dtype: np.array([np.iinfo(dtype).min, 0, np.iinfo(dtype).max], dtype)
    for dtype in ("int8", "uint8", "int16")
}


@pytest.mark.parametrize("name", _COMPARISONS)
@pytest.mark.parametrize(
    ("values", "number"),
    [
        (_EXTREMES["int8"], 300),
        (_EXTREMES["int8"], -129),
        (_EXTREMES["uint8"], -1),
        (_EXTREMES["uint8"], 256),
        (_EXTREMES["int16"], -(2**15) - 1),
        (np.array([-5, 0, 7], "int64"), 2**63),
        (np.array([0, 7], "uint64"), -1),
    ],
)
def test_a_comparison_with_an_int_outside_the_tensors_dtype_is_exact_as_in_numpy(
    name, values, number
):
    x = ops.convert_to_tensor(values)
    for args, expected in (
        ((x, number), getattr(np, name)(values, number)),
        ((number, x), getattr(np, name)(number, values)),
    ):
        got = ops.convert_to_numpy(getattr(ops, name)(*args))
        assert got.dtype == np.bool_
        np.testing.assert_array_equal(got, expected)


def test_a_comparison_of_two_python_ints_is_exact():
    assert bool(ops.convert_to_numpy(ops.less(5, 2**40)))
    assert not bool(ops.convert_to_numpy(ops.equal(2**40, 0)))


@pytest.mark.parametrize("name", _COMPARISONS)
@pytest.mark.parametrize(
    ("values", "number"),
    [
        (_EXTREMES["int8"], 300),
        (_EXTREMES["int8"], -129),
        (_EXTREMES["uint8"], -1),
        (_EXTREMES["uint8"], 257),
        (_EXTREMES["int8"], 5),
    ],
)
def test_a_variables_comparison_operators_agree_with_the_comparison_ops(name, values, number):
    """`v < 300` on an int8 variable compares by value, as `ops.less` does; before, jax, torch
    and tensorflow wrapped the int around in their own operators."""
    variable = tripod.Variable(values, dtype=str(values.dtype), trainable=False)
    compare = _OPERATORS[name]
    for got, expected in (
        (compare(variable, number), getattr(np, name)(values, number)),
        (compare(number, variable), getattr(np, name)(number, values)),
    ):
        got = ops.convert_to_numpy(got)
        assert got.dtype == np.bool_
        np.testing.assert_array_equal(got, expected)
