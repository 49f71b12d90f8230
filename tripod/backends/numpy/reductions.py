"""The numpy backend: numpy-style reductions (sums and products, extremes, statistics,
cumulative sums, counts)."""

import builtins

import numpy as np

from tripod.backends import dtypes
from tripod.backends.common import dtype_rules, errors
from tripod.backends.numpy import rules
from tripod.backends.numpy.core import convert_to_tensor

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


# -- reductions ----------------------------------------------------------------------------------
def sum(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    dtype = dtype_rules.accumulation_dtype(x.dtype)
    return rules.finish(
        np.sum(x, axis=rules.axis_arg(axis), keepdims=keepdims, dtype=rules.work(dtype)), dtype
    )


def prod(x, axis=None, keepdims=False, dtype=None):
    x = convert_to_tensor(x)
    dtype = (
        dtype_rules.accumulation_dtype(x.dtype)
        if dtype is None
        else dtypes.standardize_dtype(dtype)
    )
    return rules.finish(
        np.prod(x, axis=rules.axis_arg(axis), keepdims=keepdims, dtype=rules.work(dtype)), dtype
    )


def _float_reduce(fn, x, axis, keepdims, **kwargs):
    """`fn` over `x` as a float (ints give floatx), keeping the float's dtype."""
    dtype = rules.result(x, floating=True)
    return rules.finish(
        fn(
            rules.as_dtype(x, rules.work(dtype)),
            axis=rules.axis_arg(axis),
            keepdims=keepdims,
            **kwargs,
        ),
        dtype,
    )


def mean(x, axis=None, keepdims=False):
    return _float_reduce(np.mean, x, axis, keepdims)


def var(x, axis=None, keepdims=False):
    return _float_reduce(np.var, x, axis, keepdims)


def std(x, axis=None, keepdims=False):
    return _float_reduce(np.std, x, axis, keepdims)


def median(x, axis=None, keepdims=False):
    return _float_reduce(np.median, x, axis, keepdims)


def quantile(x, q, axis=None, method="linear", keepdims=False):
    q = np.asarray(convert_to_tensor(q), dtype=np.float64)
    if np.any((q < 0) | (q > 1)):
        raise ValueError(f"quantiles must lie in [0, 1], received {q}.")
    dtype = rules.result(x, floating=True)
    work = rules.as_dtype(x, "float64" if dtype == "float64" else "float32")
    return rules.finish(
        np.quantile(work, q, axis=rules.axis_arg(axis), method=method, keepdims=keepdims), dtype
    )


def _extreme(fn, x, axis, keepdims, initial):
    x = convert_to_tensor(x)
    extra = {} if initial is None else {"initial": initial}
    return rules.finish(fn(x, axis=rules.axis_arg(axis), keepdims=keepdims, **extra), x.dtype)


def max(x, axis=None, keepdims=False, initial=None):
    return _extreme(np.max, x, axis, keepdims, initial)


def min(x, axis=None, keepdims=False, initial=None):
    return _extreme(np.min, x, axis, keepdims, initial)


def amax(x, axis=None, keepdims=False):
    return _extreme(np.max, x, axis, keepdims, None)


def amin(x, axis=None, keepdims=False):
    return _extreme(np.min, x, axis, keepdims, None)


def all(x, axis=None, keepdims=False):
    return np.asarray(np.all(convert_to_tensor(x), axis=rules.axis_arg(axis), keepdims=keepdims))


def any(x, axis=None, keepdims=False):
    return np.asarray(np.any(convert_to_tensor(x), axis=rules.axis_arg(axis), keepdims=keepdims))


def argmax(x, axis=None, keepdims=False):
    return rules.int32(np.argmax(convert_to_tensor(x), axis=axis, keepdims=keepdims))


def argmin(x, axis=None, keepdims=False):
    return rules.int32(np.argmin(convert_to_tensor(x), axis=axis, keepdims=keepdims))


def count_nonzero(x, axis=None):
    return rules.int32(np.count_nonzero(convert_to_tensor(x), axis=rules.axis_arg(axis)))


def _cumulative(fn, x, axis, dtype):
    x = convert_to_tensor(x)
    dtype = dtype_rules.cumulative_dtype(x.dtype if dtype is None else dtype)
    return rules.finish(fn(rules.as_dtype(x, rules.work(dtype)), axis=axis), dtype)


def cumsum(x, axis=None, dtype=None):
    return _cumulative(np.cumsum, x, axis, dtype)


def cumprod(x, axis=None, dtype=None):
    return _cumulative(np.cumprod, x, axis, dtype)


def trace(x, offset=0, axis1=0, axis2=1):
    x = convert_to_tensor(x)
    dtype = dtype_rules.accumulation_dtype(x.dtype)
    return rules.finish(
        np.trace(x, offset=offset, axis1=axis1, axis2=axis2, dtype=rules.work(dtype)), dtype
    )


def bincount(x, weights=None, minlength=0, sparse=False):
    errors.check_dense("numpy", sparse)
    x = convert_to_tensor(x)
    if not dtypes.is_int(x.dtype) or x.ndim not in (1, 2):
        raise ValueError(
            f"bincount needs a 1-D or 2-D integer tensor, received {x.dtype} rank {x.ndim}."
        )
    if x.size and x.min() < 0:
        raise ValueError("bincount needs non-negative values.")
    length = builtins.max(int(x.max()) + 1 if x.size else 0, int(minlength))
    dtype = "int32" if weights is None else dtype_rules.accumulation_dtype(rules.name(weights))
    w = (
        np.ones(x.shape)
        if weights is None
        else np.broadcast_to(convert_to_tensor(weights), x.shape)
    )
    rows = [
        np.bincount(r, weights=wr.astype(np.float64), minlength=length)
        for r, wr in zip(x.reshape(-1, x.shape[-1]), w.reshape(-1, x.shape[-1]))
    ]
    counts = np.stack(rows) if x.ndim == 2 else rows[0]
    return rules.finish(counts, dtype)


def histogram(x, bins=10, range=None):
    x = convert_to_tensor(x)
    if x.ndim != 1:
        raise ValueError(f"histogram needs a 1-D input, received rank {x.ndim}.")
    if not isinstance(bins, int) or bins <= 0:
        raise ValueError(f"bins must be a positive int, received {bins!r}.")
    dtype = rules.result(x, floating=True)
    counts, edges = np.histogram(x.astype(np.float64), bins=bins, range=range)
    return rules.int32(counts), rules.finish(edges, dtype)
