"""Keras 3's result-dtype rules for reductions and index ops, shared by every backend.

Element-wise promotion lives in `tripod.backends.dtypes.result_type`; the rules here are the
op-specific ones on top of it (what `sum` of int8 or `mean` of int32 gives).
"""

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
