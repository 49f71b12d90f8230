"""Helpers shared by the jax backend's op modules: conversion with tripod's dtype rules.

Half floats (float16, bfloat16) are computed in float32 and rounded once at the end, as the
numpy reference does, so results agree within float16 precision.
"""

import jax.numpy as jnp
import numpy as np

from tripod.backends import dtypes
from tripod.backends.common import dtype_rules
from tripod.backends.jax import symbolic
from tripod.backends.jax.core import convert_to_tensor, np_dtype

HALF = ("float16", "bfloat16")


def dtype_name(x):
    """The tripod dtype name of tensor `x`."""
    return dtypes.standardize_dtype(x.dtype)


def weak_dtype(x):
    """What `dtypes.result_type` takes for `x`: its Python type if a scalar, else its dtype."""
    return dtypes.dtype_of_python_scalar(x) or dtype_name(convert_to_tensor(x))


def result_dtype(*xs, floating=False):
    """The shared result dtype name of operands `xs` (at least a float when `floating`)."""
    kinds = [weak_dtype(x) for x in xs]
    return dtypes.result_type(*kinds, float) if floating else dtypes.result_type(*kinds)


def work_dtype(name):
    """The dtype to compute a result of dtype `name` in: float32 for half floats."""
    return "float32" if name in HALF else name


def wide_dtype(name):
    """A float dtype precise enough to compute a result of dtype `name` in."""
    return "float64" if name in ("float64", "int64", "uint32", "uint64") else "float32"


def as_dtype(x, name):
    """`x` as a tensor of dtype `name`."""
    return convert_to_tensor(x, np_dtype(name))


def promote(*xs):
    """The operands as tensors of their shared result dtype (Python scalars are weak)."""
    dtype = result_dtype(*xs)
    return [as_dtype(x, dtype) for x in xs]


def promote_float(*xs):
    """The operands as tensors of their shared result dtype, made floating (ints give floatx)."""
    dtype = result_dtype(*xs, floating=True)
    return [as_dtype(x, dtype) for x in xs]


def to_float(x):
    """`x` as a tensor of a floating (or complex) dtype: ints and bools become floatx."""
    (x,) = promote_float(x)
    return x


def float_map(fn, *xs):
    """`fn` of the operands made floating, computed in at least float32, in their float dtype."""
    dtype = result_dtype(*xs, floating=True)
    work = work_dtype(dtype)
    return fn(*(as_dtype(x, work) for x in xs)).astype(np_dtype(dtype))


def bool_to_int(x):
    """`x`, with a bool tensor made int32 (for arithmetic that bools do not support)."""
    return x.astype(jnp.int32) if x.dtype == jnp.bool_ else x


def axis_arg(axis):
    """An axis argument as jax takes it: None, an int or a tuple of ints."""
    if axis is None or isinstance(axis, int):
        return axis
    return tuple(int(a) for a in axis) if isinstance(axis, (list, tuple)) else int(axis)


#: the NumPy dtype of index results (argmax, argsort, nonzero, ...)
INDEX_DTYPE = np_dtype(dtype_rules.INDEX_DTYPE)


def as_index(x):
    """Tensor `x` as an index result (`INDEX_DTYPE`)."""
    return x.astype(INDEX_DTYPE)


def shape_arg(shape):
    """A shape argument (an int or a sequence, dims possibly symbolic) as a tuple."""
    return (int(shape),) if isinstance(shape, (int, np.integer)) else symbolic.dims(shape)
