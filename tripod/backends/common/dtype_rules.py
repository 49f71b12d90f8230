"""Keras 3's result-dtype rules for reductions and index ops, shared by every backend.

Element-wise promotion lives in `tripod.backends.dtypes.result_type`; the rules here are the
op-specific ones on top of it (what `sum` of int8 or `mean` of int32 gives).
"""

import numpy as np

from tripod.backends import dtypes

#: index results (argmax, argsort, nonzero, top_k indices, ...) are int32, as in Keras
INDEX_DTYPE = "int32"

_ACCUMULATE = {
    "bool": "int32",
    "int8": "int32",
    "int16": "int32",
    "uint8": "uint32",
    "uint16": "uint32",
}


def accumulation_dtype(dtype):
    """The dtype of `sum`, `prod` or `trace` of a `dtype` tensor: narrow ints widen to 32 bits."""
    name = dtypes.standardize_dtype(dtype)
    return _ACCUMULATE.get(name, name)


def cumulative_dtype(dtype):
    """The dtype of `cumsum` / `cumprod` of a `dtype` tensor: bool counts as int32."""
    name = dtypes.standardize_dtype(dtype)
    return "int32" if name == "bool" else name


def float_dtype(dtype):
    """The dtype of a float-valued function of a `dtype` tensor: ints and bool give floatx."""
    return dtypes.result_type(dtypes.standardize_dtype(dtype), float)


def mean_dtypes(dtype):
    """(compute dtype, result dtype) of `mean`-like reductions: at least float32 inside."""
    name = dtypes.standardize_dtype(dtype)
    compute = dtypes.result_type(name, "float32")
    return compute, (compute if dtypes.is_int(name) or name == "bool" else name)


def lowest(dtype):
    """The value that never wins a max over `dtype`: -inf for floats, False for bool, else the
    dtype's minimum."""
    name = dtypes.standardize_dtype(dtype)
    if dtypes.is_float(name):
        return -np.inf
    return False if name == "bool" else np.iinfo(name).min


def sequence_dtype(dtype):
    """The dtype of a tensor made from a (nested) Python list that NumPy reads as `dtype`: Python
    floats (float64) give floatx and Python ints (int64) int32, as Python scalars do."""
    if dtype == np.float64:
        return dtypes.to_numpy(dtypes.result_type(float))
    return np.dtype(np.int32) if dtype == np.int64 else dtype
