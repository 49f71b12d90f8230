"""Autocast of `Layer` inputs to the compute dtype, with the dtype cache that keeps it cheap."""

from tripod.backends import active, dtypes
from tripod.backends.common.variables import Variable

ops = active()

#: (tensor type, native dtype) -> tripod dtype name, for the autocast check of layer inputs:
#: one lookup answers both "is it a tensor" and "of which dtype" for every later input
_TENSOR_DTYPES = {}
_UNCAST = (bool, int, float, str, Variable)


def cast_input(x, compute_dtype):
    """`x` as a tensor of `compute_dtype` if it is floating, as a tensor if it is other array
    data, else as it is."""
    dtype = _TENSOR_DTYPES.get((type(x), getattr(x, "dtype", None)))
    if dtype is None:
        if x is None or isinstance(x, _UNCAST):
            return x
        if not ops.is_tensor(x):
            x = ops.convert_to_tensor(x)
        dtype = _TENSOR_DTYPES.setdefault((type(x), x.dtype), ops.dtype(x))
    if dtype != compute_dtype and dtypes.is_float(dtype):
        return ops.cast(x, compute_dtype)
    return x
