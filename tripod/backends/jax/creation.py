"""The jax backend: numpy-style ops that make arrays (filled, ranges, grids, windows)."""

import jax.numpy as jnp
import numpy as np

from tripod.backends import dtypes
from tripod.backends.jax.core import convert_to_tensor
from tripod.backends.jax.helpers import (
    np_dtype,
    shape_arg,
    weak_dtype,
)

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


def zeros(shape, dtype=None):
    return jnp.zeros(shape_arg(shape), np_dtype(dtype))


def ones(shape, dtype=None):
    return jnp.ones(shape_arg(shape), np_dtype(dtype))


def full(shape, fill_value, dtype=None):
    return jnp.broadcast_to(convert_to_tensor(fill_value, np_dtype(dtype)), shape_arg(shape))


def zeros_like(x, dtype=None):
    return jnp.zeros_like(convert_to_tensor(x), dtype=_like_dtype(dtype))


def ones_like(x, dtype=None):
    return jnp.ones_like(convert_to_tensor(x), dtype=_like_dtype(dtype))


def full_like(x, fill_value, dtype=None):
    x = convert_to_tensor(x)
    dtype = x.dtype if dtype is None else np_dtype(dtype)
    return jnp.broadcast_to(convert_to_tensor(fill_value).astype(dtype), x.shape)


def _like_dtype(dtype):
    return None if dtype is None else np_dtype(dtype)


def eye(N, M=None, k=0, dtype=None):
    return jnp.eye(N, M, k, dtype=np_dtype(dtype))


def arange(start, stop=None, step=None, dtype=None):
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    if dtype is None:
        dtype = dtypes.result_type(*(weak_dtype(v) for v in (start, stop, step)))
    start, stop, step = (_scalar(v) for v in (start, stop, step))
    return jnp.arange(start, stop, step, dtype=np_dtype(dtype))


def _scalar(value):
    """A Python number from a number or a 0-d tensor."""
    if isinstance(value, (int, float, bool)):
        return value
    return np.asarray(convert_to_tensor(value)).item()


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    compute = dtypes.result_type(weak_dtype(start), weak_dtype(stop), float)
    start, stop = convert_to_tensor(start, compute), convert_to_tensor(stop, compute)
    result = jnp.linspace(start, stop, num, endpoint=endpoint, retstep=True, axis=axis)
    samples, step = result
    samples = samples if dtype is None else _cast_samples(samples, dtype)
    return (samples, step) if retstep else samples


def _cast_samples(samples, dtype):
    """Evenly spaced float samples as `dtype` (integers round down, as numpy does)."""
    if dtypes.is_int(dtype):
        samples = jnp.floor(samples)
    return samples.astype(np_dtype(dtype))


def diag(x, k=0):
    return jnp.diag(convert_to_tensor(x), k)


def diagflat(x, k=0):
    return jnp.diagflat(convert_to_tensor(x), k)


def tril(x, k=0):
    return jnp.tril(convert_to_tensor(x), k)


def triu(x, k=0):
    return jnp.triu(convert_to_tensor(x), k)


def meshgrid(*x, indexing="xy"):
    return jnp.meshgrid(*(convert_to_tensor(v) for v in x), indexing=indexing)
