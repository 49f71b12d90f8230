"""Tensors and dtypes for the tensorflow backend: conversion and promotion.

Every tensorflow op module builds on these helpers; `convert_to_tensor` and `cast` live here
because they all need them, and `core` registers them as ops.
"""

import functools

import numpy as np
import tensorflow as tf

from tripod.backends import dtypes
from tripod.backends.common import dtype_rules, variables

TENSOR_TYPES = (tf.Tensor, tf.Variable, tf.SparseTensor, tf.RaggedTensor)
# (Not `type(tf.constant(0))`: running an op at import would start TensorFlow's runtime, after
# which a multi-worker run can no longer be joined.)


# -- dtype helpers -------------------------------------------------------------------------------
@functools.cache
def _tf_dtype_of_name(name):
    return tf.as_dtype(name)


def tf_dtype(dtype):
    """The `tf.DType` for any dtype spelling tripod accepts (None means floatx)."""
    if isinstance(dtype, tf.DType):
        return dtype
    return _tf_dtype_of_name(dtypes.standardize_dtype(dtype))


def dtype_name(x):
    """The tripod dtype name of a tensor (or of anything `convert_to_tensor` accepts)."""
    if not isinstance(x, TENSOR_TYPES) and not isinstance(x, variables.Variable):
        x = convert_to_tensor(x)
    return dtypes.standardize_dtype(x.dtype)


def kind_of(x):
    """The promotion kind of an operand: its Python type if a weak scalar, else its dtype."""
    return dtypes.dtype_of_python_scalar(x) or dtype_name(x)


def promote(*xs):
    """The operands as tensors of their shared result dtype (Python scalars are weak)."""
    dtype = dtypes.result_type(*(kind_of(x) for x in xs))
    return [convert_to_tensor(x, dtype) for x in xs]


def wide_float(dtype):
    """The float dtype computing a `dtype` result in: float64 for 64-bit types (and uint32)."""
    return tf.float64 if dtype in (tf.float64, tf.int64, tf.uint32, tf.uint64) else tf.float32


def to_float(x):
    """`x` as a tensor, integers and bools cast to floatx (what unary float functions take)."""
    x = convert_to_tensor(x)
    if x.dtype.is_floating or x.dtype.is_complex:
        return x
    return tf.cast(x, tf_dtype(None))


# -- tensors -------------------------------------------------------------------------------------
def _has_tensor(x):
    if isinstance(x, (list, tuple)):
        return any(_has_tensor(e) for e in x)
    return isinstance(x, (*TENSOR_TYPES, variables.Variable))


def _pack(x):
    """A (nested) list holding tensors, as one tensor of the elements' shared dtype."""
    if not isinstance(x, (list, tuple)):
        return x
    parts = [_pack(e) for e in x]
    return tf.stack(promote(*parts)) if parts else tf.constant([], tf_dtype(None))


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    if isinstance(x, variables.Variable):
        x = x.value
    if isinstance(x, tf.SparseTensor) and sparse is False:
        x = tf.sparse.to_dense(x)
    if isinstance(x, tf.RaggedTensor) and ragged is False:
        x = x.to_tensor()
    if isinstance(x, tf.Variable):
        x = tf.convert_to_tensor(x)
    if isinstance(x, TENSOR_TYPES):
        return x if dtype is None else cast(x, dtype)
    if isinstance(x, (list, tuple)) and _has_tensor(x):
        x = _pack(x)
        return x if dtype is None else cast(x, dtype)
    if dtype is not None:
        return tf.constant(np.asarray(x, dtype=dtypes.to_numpy(dtype)))
    kind = dtypes.dtype_of_python_scalar(x)
    if kind is not None:
        return tf.constant(x, tf_dtype(dtypes.result_type(kind)))
    array = np.asarray(x)
    if not isinstance(x, (np.ndarray, np.generic)):
        array = array.astype(dtype_rules.sequence_dtype(array.dtype), copy=False)
    return tf.constant(array)


def cast(x, dtype):
    dtype = tf_dtype(dtype)
    x = convert_to_tensor(x)
    return x if x.dtype == dtype else tf.cast(x, dtype)


def as_tensors(tree):
    """Every leaf of `tree` as a tensor."""
    return tf.nest.map_structure(convert_to_tensor, tree)
