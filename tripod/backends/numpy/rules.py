"""Dtype plumbing shared by the numpy backend's op modules.

Every op computes with NumPy and returns the dtype of the shared rules: operands promote through
`dtypes.result_type` (Python scalars are weak), float functions of ints give floatx. float16 and
bfloat16 work is done in float32 and rounded once at the end.
"""

import numpy as np

from tripod.backends import dtypes
from tripod.backends.numpy.core import convert_to_tensor

_HALF = ("float16", "bfloat16")


def kind(x):
    """The promotion type of operand `x`: a weak Python type for Python scalars, else its dtype."""
    return dtypes.dtype_of_python_scalar(x) or convert_to_tensor(x).dtype


def result(*xs, floating=False):
    """The shared result dtype name of operands `xs` (at least a float when `floating`)."""
    kinds = [kind(x) for x in xs]
    return dtypes.result_type(*kinds, float) if floating else dtypes.result_type(*kinds)


def work(dtype):
    """The dtype to compute in for result `dtype`: float32 for half floats."""
    name = dtypes.standardize_dtype(dtype)
    return "float32" if name in _HALF else name


def wide(dtype):
    """A float dtype that computes results of `dtype` exactly enough: float64 for ints and float64."""
    name = dtypes.standardize_dtype(dtype)
    return "float64" if name == "float64" or dtypes.is_int(name) else "float32"


def as_dtype(x, dtype):
    """`x` as an array of `dtype`."""
    return convert_to_tensor(x, dtype)


def finish(value, dtype):
    """`value` as an array of `dtype`."""
    return np.asarray(value).astype(dtypes.to_numpy(dtype), copy=False)


def name(x):
    """The dtype name of `x`."""
    return dtypes.standardize_dtype(convert_to_tensor(x).dtype)


def quiet():
    """A context without NumPy's floating-point warnings: inf and nan are answers, as elsewhere."""
    return np.errstate(all="ignore")


def float_map(fn, x):
    """`fn` applied to `x` as a float: ints and bools give floatx, floats keep their dtype."""
    dtype = result(x, floating=True)
    with quiet():
        return finish(fn(as_dtype(x, work(dtype))), dtype)


def same_map(fn, x):
    """`fn` applied to `x`, keeping its dtype."""
    x = convert_to_tensor(x)
    with quiet():
        return finish(fn(as_dtype(x, work(x.dtype))), x.dtype)


def int32(value):
    """`value` as an int32 array (index results)."""
    return np.asarray(value).astype(np.int32)


def binary(fn, x1, x2, floating=False):
    """`fn` on operands promoted to their shared dtype (a float when `floating`)."""
    dtype = result(x1, x2, floating=floating)
    compute = work(dtype)
    with quiet():
        return finish(fn(as_dtype(x1, compute), as_dtype(x2, compute)), dtype)


def axis_arg(axis):
    """An axis argument as NumPy takes it (lists become tuples)."""
    return tuple(axis) if isinstance(axis, list) else axis


def shape_tuple(shape):
    """A shape argument (an int or a sequence) as a tuple of ints."""
    return (int(shape),) if np.ndim(shape) == 0 else tuple(int(d) for d in shape)
