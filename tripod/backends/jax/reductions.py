"""The jax backend: numpy-style reductions (sums and products, extremes, statistics,
cumulative sums, counts)."""

import builtins
import functools
import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tripod.backends.common import dtype_rules, errors
from tripod.backends.jax.core import convert_to_tensor
from tripod.backends.jax.helpers import (
    INDEX_DTYPE,
    as_index,
    axis_arg,
    np_dtype,
    to_float,
)

__all__ = [
    "all",
    "amax",
    "amin",
    "any",
    "argmax",
    "argmin",
    "bincount",
    "count_nonzero",
    "cumprod",
    "cumsum",
    "histogram",
    "max",
    "mean",
    "median",
    "min",
    "prod",
    "quantile",
    "std",
    "sum",
    "trace",
    "var",
]


def sum(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    dtype = np_dtype(dtype_rules.accumulation_dtype(x.dtype))
    return jnp.sum(x, axis=axis_arg(axis), keepdims=keepdims, dtype=dtype)


def prod(x, axis=None, keepdims=False, dtype=None):
    x = convert_to_tensor(x)
    dtype = np_dtype(dtype or dtype_rules.accumulation_dtype(x.dtype))
    return jnp.prod(x, axis=axis_arg(axis), keepdims=keepdims, dtype=dtype)


def mean(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    compute, result = dtype_rules.mean_dtypes(x.dtype)
    out = jnp.mean(x.astype(np_dtype(compute)), axis=axis_arg(axis), keepdims=keepdims)
    return out.astype(np_dtype(result))


def _float_reduction(fn, x, **kwargs):
    """`fn` of `x` computed in at least float32, returned in `x`'s float dtype."""
    x = convert_to_tensor(x)
    compute, _ = dtype_rules.mean_dtypes(x.dtype)
    out = fn(x.astype(np_dtype(compute)), **kwargs)
    return out.astype(np_dtype(dtype_rules.float_dtype(x.dtype)))


def var(x, axis=None, keepdims=False):
    return _float_reduction(jnp.var, x, axis=axis_arg(axis), keepdims=keepdims)


def std(x, axis=None, keepdims=False):
    return _float_reduction(jnp.std, x, axis=axis_arg(axis), keepdims=keepdims)


def median(x, axis=None, keepdims=False):
    return _float_reduction(jnp.median, x, axis=axis_arg(axis), keepdims=keepdims)


def quantile(x, q, axis=None, method="linear", keepdims=False):
    x = convert_to_tensor(x)
    compute, _ = dtype_rules.mean_dtypes(x.dtype)
    q = convert_to_tensor(q, compute)
    fn = (
        _nearest_quantile if method == "nearest" else functools.partial(jnp.quantile, method=method)
    )
    return _float_reduction(fn, x, q=q, axis=axis_arg(axis), keepdims=keepdims)


def _nearest_quantile(x, q, axis, keepdims):
    """The 'nearest' quantile, ties at a half going to the even index as in numpy."""
    count = x.size if axis is None else math.prod(x.shape[a] for a in np.atleast_1d(axis))
    index = q.astype(np_dtype("float64")) * (count - 1)
    higher = jnp.round(index) > jnp.floor(index)
    low, high = (
        jnp.quantile(x, q, axis=axis, method=m, keepdims=keepdims) for m in ("lower", "higher")
    )
    return jnp.where(higher.reshape(q.shape + (1,) * (low.ndim - q.ndim)), high, low)


def max(x, axis=None, keepdims=False, initial=None):
    return jnp.max(convert_to_tensor(x), axis=axis_arg(axis), keepdims=keepdims, initial=initial)


def min(x, axis=None, keepdims=False, initial=None):
    return jnp.min(convert_to_tensor(x), axis=axis_arg(axis), keepdims=keepdims, initial=initial)


def amax(x, axis=None, keepdims=False):
    return jnp.max(convert_to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


def amin(x, axis=None, keepdims=False):
    return jnp.min(convert_to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


def all(x, axis=None, keepdims=False):
    return jnp.all(convert_to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


def any(x, axis=None, keepdims=False):
    return jnp.any(convert_to_tensor(x), axis=axis_arg(axis), keepdims=keepdims)


def argmax(x, axis=None, keepdims=False):
    return _arg_reduce(lax.argmax, "argmax", x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _arg_reduce(lax.argmin, "argmin", x, axis, keepdims)


def _arg_reduce(reduce, name, x, axis, keepdims):
    """The int32 index `reduce` (lax.argmax / argmin) picks along `axis` (None: of all values)."""
    x = convert_to_tensor(x)
    values = x.reshape(-1) if axis is None else x
    along = 0 if axis is None else errors.check_axis(name, axis, x.ndim)
    if values.shape[along] == 0:
        raise ValueError(f"{name} of an empty sequence along axis {along}.")
    if values.dtype == jnp.bool_:
        values = values.astype(jnp.int8)
    out = reduce(values, along, INDEX_DTYPE)
    if not keepdims:
        return out
    return out.reshape((1,) * x.ndim) if axis is None else jnp.expand_dims(out, along)


def count_nonzero(x, axis=None):
    return jnp.sum(convert_to_tensor(x) != 0, axis=axis_arg(axis), dtype=INDEX_DTYPE)


def _cumulative(fn, x, axis, dtype):
    """`fn` (a running total) in `cumulative_dtype`: a bool dtype, given or kept, counts in
    int32; a 0-d `x` is 1-D, as NumPy takes it."""
    x = convert_to_tensor(x)
    dtype = np_dtype(dtype_rules.cumulative_dtype(x.dtype if dtype is None else dtype))
    return fn(x.reshape(-1) if x.ndim == 0 else x, axis=axis, dtype=dtype)


def cumsum(x, axis=None, dtype=None):
    return _cumulative(jnp.cumsum, x, axis, dtype)


def cumprod(x, axis=None, dtype=None):
    return _cumulative(jnp.cumprod, x, axis, dtype)


def trace(x, offset=0, axis1=0, axis2=1):
    x = convert_to_tensor(x)
    dtype = np_dtype(dtype_rules.accumulation_dtype(x.dtype))
    return jnp.trace(x, offset=offset, axis1=axis1, axis2=axis2, dtype=dtype)


def bincount(x, weights=None, minlength=0, sparse=False):
    if sparse:
        raise ValueError("sparse=True is not supported by the jax backend.")
    x = convert_to_tensor(x)
    if x.ndim not in (1, 2):
        raise ValueError(f"x must be 1-D or 2-D, received rank {x.ndim}.")
    if weights is None:
        weights = jnp.ones(x.shape, INDEX_DTYPE)
    else:
        weights = convert_to_tensor(weights)
        weights = weights.astype(np_dtype(dtype_rules.cumulative_dtype(weights.dtype)))
    length = _bincount_length(x, minlength)

    def count(values, w):
        return jnp.bincount(values, w, length=length)

    return count(x, weights) if x.ndim == 1 else jax.vmap(count)(x, weights)


def _bincount_length(x, minlength):
    """The number of bins: past the largest value, at least minlength.

    Inside a trace the values are unknown, so `minlength` alone fixes the number of bins
    (larger values are dropped); it must then be given.
    """
    if isinstance(x, jax.core.Tracer):
        if int(minlength) <= 0:
            raise ValueError("bincount under jit needs minlength (the number of bins).")
        return int(minlength)
    return builtins.max(int(minlength), int(jnp.max(x)) + 1 if x.size else 0)


def histogram(x, bins=10, range=None):
    x = convert_to_tensor(x)
    if x.ndim != 1:
        raise ValueError(f"x must be 1-D, received rank {x.ndim}.")
    counts, edges = jnp.histogram(to_float(x), bins=bins, range=range)
    return as_index(counts), edges
