"""The numpy backend: numpy-style ops that make arrays (filled, ranges, grids, windows)."""

import numpy as np

from tripod.backends import dtypes
from tripod.backends.numpy import rules
from tripod.backends.numpy.core import convert_to_tensor

__all__ = [
    "arange",
    "diag",
    "diagflat",
    "eye",
    "full",
    "full_like",
    "linspace",
    "meshgrid",
    "ones",
    "ones_like",
    "tril",
    "triu",
    "zeros",
    "zeros_like",
]


# -- creation ------------------------------------------------------------------------------------
def _creation_dtype(dtype):
    return dtypes.to_numpy(dtypes.standardize_dtype(dtype))


def zeros(shape, dtype=None):
    return np.zeros(rules.shape_tuple(shape), dtype=_creation_dtype(dtype))


def ones(shape, dtype=None):
    return np.ones(rules.shape_tuple(shape), dtype=_creation_dtype(dtype))


def full(shape, fill_value, dtype=None):
    dtype = _creation_dtype(dtype)
    return np.array(np.broadcast_to(rules.as_dtype(fill_value, dtype), rules.shape_tuple(shape)))


def _like_dtype(x, dtype):
    return convert_to_tensor(x).dtype if dtype is None else _creation_dtype(dtype)


def zeros_like(x, dtype=None):
    return np.zeros(np.shape(convert_to_tensor(x)), dtype=_like_dtype(x, dtype))


def ones_like(x, dtype=None):
    return np.ones(np.shape(convert_to_tensor(x)), dtype=_like_dtype(x, dtype))


def full_like(x, fill_value, dtype=None):
    dtype = _like_dtype(x, dtype)
    return np.array(
        np.broadcast_to(rules.as_dtype(fill_value, dtype), np.shape(convert_to_tensor(x)))
    )


def eye(N, M=None, k=0, dtype=None):
    return np.eye(int(N), None if M is None else int(M), k=int(k), dtype=_creation_dtype(dtype))


def _number(value):
    """A Python scalar, or the value of a 0-d tensor, as a Python number."""
    if dtypes.dtype_of_python_scalar(value) is not None:
        return value
    return np.asarray(convert_to_tensor(value)).item()


def arange(start, stop=None, step=None, dtype=None):
    step = 1 if step is None else step
    if dtype is None:
        dtype = rules.result(*(v for v in (start, stop, step) if v is not None))
    if stop is None:
        start, stop = 0, start
    values = [_number(v) for v in (start, stop, step)]
    return np.arange(*values, dtype=dtypes.to_numpy(dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    float_dtype = rules.result(start, stop, floating=True)
    dtype = float_dtype if dtype is None else dtypes.standardize_dtype(dtype)
    samples, step = np.linspace(
        rules.as_dtype(start, "float64"),
        rules.as_dtype(stop, "float64"),
        int(num),
        endpoint=endpoint,
        retstep=True,
        axis=axis,
    )
    if dtypes.is_int(dtype):
        samples = np.floor(samples)
    samples = rules.finish(samples, dtype)
    return (samples, rules.finish(step, float_dtype)) if retstep else samples


def meshgrid(*x, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing must be 'xy' or 'ij', received {indexing!r}.")
    return [g.copy() for g in np.meshgrid(*(convert_to_tensor(v) for v in x), indexing=indexing)]


def diag(x, k=0):
    x = convert_to_tensor(x)
    if x.ndim not in (1, 2):
        raise ValueError(f"diag needs a 1-D or 2-D input, received rank {x.ndim}.")
    return np.diag(x, k=k)


def diagflat(x, k=0):
    return np.diagflat(convert_to_tensor(x), k=k)


def tril(x, k=0):
    return np.tril(convert_to_tensor(x), k=k)


def triu(x, k=0):
    return np.triu(convert_to_tensor(x), k=k)
