"""Helpers shared by the derived op modules: dtypes, axes, static shapes, through a backend."""

import numpy as np

from tripod.backends import dtypes
from tripod.backends.common import dtype_rules, errors

#: machine epsilon of each float dtype (for default tolerances)
EPS = {"bfloat16": 2.0**-7, "float16": 2.0**-10, "float32": 2.0**-23, "float64": 2.0**-52}


def shape(ops, x):
    """The shape of `x` as a tuple of ints, with None for each dim unknown while tracing."""
    return tuple(int(d) if isinstance(d, (int, np.integer)) else None for d in ops.shape(x))


def compatible(shape1, shape2):
    """Whether two shapes can be equal: same rank, and equal wherever both dims are known."""
    return len(shape1) == len(shape2) and all(
        a is None or b is None or a == b for a, b in zip(shape1, shape2)
    )


def rank(ops, x):
    """The number of axes of `x`."""
    return len(ops.shape(x))


def dtype_of(ops, x):
    """The canonical dtype name of tensor `x`."""
    return dtypes.standardize_dtype(ops.dtype(x))


def kind_of(ops, x):
    """The promotion type of operand `x`: a weak Python type for a Python scalar, else its dtype."""
    return dtypes.dtype_of_python_scalar(x) or dtype_of(ops, ops.convert_to_tensor(x))


def is_float(ops, x):
    """Whether tensor `x` has a floating dtype."""
    return dtypes.is_float(dtype_of(ops, x))


def to_float(ops, x):
    """`x` as a tensor of a float dtype: ints and bool become floatx, floats and complexes stay."""
    x = ops.convert_to_tensor(x)
    dtype = dtype_of(ops, x)
    target = dtype_rules.float_dtype(dtype)
    return x if target == dtype else ops.cast(x, target)


def promote(ops, *xs, floating=False):
    """The operands `xs` as tensors of their shared dtype (a float one when `floating`)."""
    dtype = dtypes.result_type(*(kind_of(ops, x) for x in xs))
    if floating:
        dtype = dtype_rules.float_dtype(dtype)
    return [ops.cast(x, dtype) for x in xs]


def complex_from_parts(ops, real, imag):
    """The complex tensor `real + i * imag` (complex64, or complex128 for float64 parts)."""
    return ops.add(real, ops.multiply(imag, 1j))


def axis_of(name, axis, ndim):
    """`axis` as a non-negative int, checked against rank `ndim` (errors name op `name`)."""
    return errors.check_axis(name, axis, ndim)


def axes_of(name, axis, ndim):
    """`axis` (None, an int or a sequence) as a sorted tuple of distinct non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    axes = [axis_of(name, a, ndim) for a in ((axis,) if isinstance(axis, int) else axis)]
    if len(set(axes)) != len(axes):
        raise ValueError(f"ops.{name}: repeated axis in {axis!r}.")
    return tuple(sorted(axes))


def static_int(ops, value, name):
    """A Python int from `value` (an int or a concrete scalar tensor): it sets an output shape."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    array = np.asarray(ops.convert_to_numpy(value))
    if array.ndim != 0 or array.dtype.kind not in "iu":
        raise ValueError(f"ops.{name}: expected an integer scalar, received {value!r}.")
    return int(array)


def static_shape(shape):
    """`shape` as a `reshape` target: its one unknown dim (None or -1, if any) given as -1."""
    if sum(d is None or d == -1 for d in shape) > 1:
        raise ValueError(f"cannot reshape with more than one unknown dimension in {tuple(shape)}.")
    return tuple(-1 if d is None else d for d in shape)


def slice_axis(ops, x, start, stop, axis):
    """`x[..., start:stop, ...]` with the slice on `axis` (non-negative)."""
    return ops.get_item(x, (slice(None),) * axis + (slice(start, stop),))


def along(ops, values, axis, ndim):
    """1-D `values` reshaped to broadcast along `axis` of a rank-`ndim` tensor."""
    shape = [1] * ndim
    shape[axis] = -1
    return ops.reshape(values, tuple(shape))
