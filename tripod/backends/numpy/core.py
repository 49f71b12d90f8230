"""The numpy backend: core ops (tensors, conversion, shape, control flow)."""

import numpy as np

from tripod.backends import dtypes
from tripod.backends.common import variables


class Variable(variables.Variable):
    """A variable holding a NumPy array."""

    def _to_native(self, value):
        return convert_to_tensor(value, dtype=self._dtype)

    def _store(self, native):
        self._array = native

    def _read(self):
        return self._array

    def _write(self, native):
        self._array = native


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    if isinstance(x, variables.Variable):
        x = x.value
    if dtype is not None:
        return np.asarray(x, dtype=dtypes.to_numpy(dtype))
    if isinstance(x, np.ndarray):
        return x
    kind = dtypes.dtype_of_python_scalar(x)
    if kind is not None:
        return np.asarray(x, dtype=dtypes.to_numpy(dtypes.result_type(kind)))
    array = np.asarray(x)
    if array.dtype == np.float64 and not isinstance(x, np.generic):
        return array.astype(dtypes.to_numpy(dtypes.result_type(float)))
    if array.dtype == np.int64 and not isinstance(x, np.generic):
        return array.astype(np.int32)
    return array


def cast(x, dtype):
    return convert_to_tensor(x).astype(dtypes.to_numpy(dtype), copy=False)
