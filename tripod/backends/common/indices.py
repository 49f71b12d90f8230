"""Class-index arguments (`one_hot`'s labels), checked and cast the same way on every backend."""

import numpy as np

from tripod.backends import dtypes

#: the dtype float and bool labels are cast to (truncating toward zero, as Keras does)
INDEX_DTYPE = "int32"


def _dtype_name(x):
    """The canonical dtype name of tensor or host value `x`, or its raw name if tripod has none."""
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        dtype = np.asarray(x).dtype
    try:
        return dtypes.standardize_dtype(dtype)
    except TypeError:
        return str(getattr(dtype, "name", dtype))


def class_indices_dtype(op, x):
    """The dtype to convert labels `x` to before op `op` reads them as class indices: None for
    integers (kept as they are), `INDEX_DTYPE` for floats and bools; a TypeError otherwise."""
    name = _dtype_name(x)
    if name in dtypes.INTS + dtypes.UINTS:
        return None
    if name in dtypes.FLOATS or name == "bool":
        return INDEX_DTYPE
    raise TypeError(
        f"ops.{op}: expected class indices of an integer dtype (float and bool labels are cast "
        f"to {INDEX_DTYPE}), received dtype {name}."
    )
