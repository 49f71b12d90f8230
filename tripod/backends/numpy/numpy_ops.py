"""The numpy backend: numpy-style array ops."""

import numpy as np

from tripod.backends import dtypes
from tripod.backends.numpy.core import convert_to_tensor


def _promote(x1, x2):
    """Both operands as arrays of the shared result dtype (Python scalars are weak)."""
    d1 = dtypes.dtype_of_python_scalar(x1) or convert_to_tensor(x1).dtype
    d2 = dtypes.dtype_of_python_scalar(x2) or convert_to_tensor(x2).dtype
    dtype = dtypes.to_numpy(dtypes.result_type(d1, d2))
    return convert_to_tensor(x1, dtype), convert_to_tensor(x2, dtype)


def add(x1, x2):
    x1, x2 = _promote(x1, x2)
    return np.add(x1, x2)
