"""Helpers shared by the jax backend's op modules: conversion with tripod's dtype rules."""

import jax.numpy as jnp

from tripod.backends import dtypes
from tripod.backends.jax.core import convert_to_tensor


def np_dtype(name):
    """The dtype object jax takes for tripod dtype `name`."""
    return dtypes.to_numpy(name)


def dtype_name(x):
    """The tripod dtype name of tensor `x`."""
    return dtypes.standardize_dtype(x.dtype)


def weak_dtype(x):
    """What `dtypes.result_type` takes for operand `x`: its Python type if a scalar, else its dtype."""
    return dtypes.dtype_of_python_scalar(x) or dtype_name(convert_to_tensor(x))


def promote(*xs):
    """The operands as tensors of their shared result dtype (Python scalars are weak)."""
    dtype = np_dtype(dtypes.result_type(*(weak_dtype(x) for x in xs)))
    return [convert_to_tensor(x, dtype) for x in xs]


def promote_float(*xs):
    """The operands as tensors of their shared result dtype, made floating (ints give floatx)."""
    dtype = np_dtype(dtypes.result_type(*(weak_dtype(x) for x in xs), float))
    return [convert_to_tensor(x, dtype) for x in xs]


def to_float(x):
    """`x` as a tensor of a floating (or complex) dtype: ints and bools become floatx."""
    (x,) = promote_float(x)
    return x


def bool_to_int(x):
    """`x`, with a bool tensor made int32 (for arithmetic that bools do not support)."""
    return x.astype(jnp.int32) if x.dtype == jnp.bool_ else x


def axis_arg(axis):
    """An axis argument as jax takes it: None, an int or a tuple of ints."""
    if axis is None or isinstance(axis, int):
        return axis
    return tuple(int(a) for a in axis) if isinstance(axis, (list, tuple)) else int(axis)
