"""NumPy-style reductions written over a backend's other ops (statistics, NaN stats, quantiles)."""

import math

import numpy as np

from tripod.backends import dtypes
from tripod.backends.common.derived import helpers as c

__all__ = [
    "allclose",
    "average",
    "corrcoef",
    "nanargmax",
    "nanargmin",
    "nancumprod",
    "nancumsum",
    "nanmax",
    "nanmean",
    "nanmedian",
    "nanmin",
    "nanpercentile",
    "nanprod",
    "nanquantile",
    "nanstd",
    "nansum",
    "nanvar",
    "percentile",
    "ptp",
    "trapezoid",
]


# -- statistics ----------------------------------------------------------------------------------
def _weights_like(ops, weights, x_shape, axis):
    """1-D (or per-`axis`) `weights` reshaped to broadcast against a tensor of `x_shape`."""
    w_shape = c.shape(ops, weights)
    if c.compatible(w_shape, x_shape):
        return weights
    if axis is None:
        raise ValueError(
            f"ops.average: weights of shape {w_shape} differ from x's {tuple(x_shape)}; "
            "pass `axis` for 1-D weights."
        )
    given = [axis] if isinstance(axis, int) else list(axis)
    axes = [c.axis_of("average", a, len(x_shape)) for a in given]
    if not c.compatible(w_shape, [x_shape[a] for a in axes]):
        raise ValueError(
            f"ops.average: weights of shape {w_shape} do not match the axes {axis} of x, "
            f"shape {tuple(x_shape)}."
        )
    order = sorted(range(len(axes)), key=lambda i: axes[i])
    shape = [1] * len(x_shape)
    for i in order:
        shape[axes[i]] = w_shape[i]
    return ops.reshape(ops.transpose(weights, order), c.static_shape(shape))


def average(ops, x, axis=None, weights=None):
    if weights is None:
        return ops.mean(x, axis=axis)
    x, weights = c.promote(ops, x, weights, floating=True)
    weights = _weights_like(ops, weights, c.shape(ops, x), axis)
    total = ops.sum(ops.multiply(x, weights), axis=axis)
    return ops.divide(total, ops.sum(ops.multiply(ops.ones_like(x), weights), axis=axis))


def ptp(ops, x, axis=None, keepdims=False):
    return ops.subtract(
        ops.max(x, axis=axis, keepdims=keepdims), ops.min(x, axis=axis, keepdims=keepdims)
    )


def trapezoid(ops, y, x=None, dx=1.0, axis=-1):
    y = c.to_float(ops, y)
    rank = c.rank(ops, y)
    axis = c.axis_of("trapezoid", axis, rank)
    pair_sum = ops.add(c.slice_axis(ops, y, 1, None, axis), c.slice_axis(ops, y, 0, -1, axis))
    if x is None:
        spacing = dx
    else:
        x = c.to_float(ops, x)
        if c.rank(ops, x) == 1:
            spacing = c.along(ops, ops.diff(x), axis, rank)
        else:
            spacing = ops.diff(x, axis=axis)
    return ops.sum(ops.multiply(ops.multiply(pair_sum, spacing), 0.5), axis=axis)


def corrcoef(ops, x):
    x = c.to_float(ops, x)
    rank = c.rank(ops, x)
    if rank not in (1, 2):
        raise ValueError(f"ops.corrcoef: x must be 1-D or 2-D, got shape {c.shape(ops, x)}.")
    rows = x if rank == 2 else ops.expand_dims(x, 0)
    centered = ops.subtract(rows, ops.mean(rows, axis=1, keepdims=True))
    cov = ops.matmul(centered, ops.transpose(ops.conj(centered)))
    scale = ops.sqrt(ops.real(ops.diagonal(cov)))
    corr = ops.divide(ops.divide(cov, ops.expand_dims(scale, 1)), ops.expand_dims(scale, 0))
    if not dtypes.is_complex(c.dtype_of(ops, corr)):
        corr = ops.clip(corr, -1.0, 1.0)
    return corr if rank == 2 else ops.reshape(corr, ())


def allclose(ops, x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    return ops.all(ops.isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan))


# -- NaN-ignoring reductions (non-float tensors hold no NaN: they use the plain op) ---------------
def _nan_filled(ops, x, fill):
    """`x` as a tensor with its NaNs replaced by `fill` (a non-float tensor holds none)."""
    x = ops.convert_to_tensor(x)
    return ops.where(ops.isnan(x), fill, x) if c.is_float(ops, x) else x


def _count(ops, x, axis, keepdims):
    """The number of non-NaN entries of float `x` over `axis`, as int32."""
    present = ops.cast(ops.logical_not(ops.isnan(x)), "int32")
    return ops.sum(present, axis=axis, keepdims=keepdims)


def nansum(ops, x, axis=None, keepdims=False):
    return ops.sum(_nan_filled(ops, x, 0.0), axis=axis, keepdims=keepdims)


def nanprod(ops, x, axis=None, keepdims=False):
    return ops.prod(_nan_filled(ops, x, 1.0), axis=axis, keepdims=keepdims)


def nanmean(ops, x, axis=None, keepdims=False):
    x = ops.convert_to_tensor(x)
    if not c.is_float(ops, x):
        return ops.mean(x, axis=axis, keepdims=keepdims)
    total = ops.sum(_nan_filled(ops, x, 0.0), axis=axis, keepdims=keepdims)
    return ops.divide(total, _count(ops, x, axis, keepdims))


def nanvar(ops, x, axis=None, keepdims=False):
    x = ops.convert_to_tensor(x)
    if not c.is_float(ops, x):
        return ops.var(x, axis=axis, keepdims=keepdims)
    deviation = ops.subtract(x, ops.nanmean(x, axis=axis, keepdims=True))
    squares = _nan_filled(ops, ops.square(deviation), 0.0)
    return ops.divide(
        ops.sum(squares, axis=axis, keepdims=keepdims), _count(ops, x, axis, keepdims)
    )


def nanstd(ops, x, axis=None, keepdims=False):
    x = ops.convert_to_tensor(x)
    if not c.is_float(ops, x):
        return ops.std(x, axis=axis, keepdims=keepdims)
    return ops.sqrt(ops.nanvar(x, axis=axis, keepdims=keepdims))


def _nan_ignoring(ops, x, axis, keepdims, reduce, fill, all_nan):
    """`reduce` over `axis` ignoring NaNs (filled with `fill`); `all_nan` for all-NaN slices."""
    x = ops.convert_to_tensor(x)
    if not c.is_float(ops, x):
        return reduce(x, axis=axis, keepdims=keepdims)
    result = reduce(_nan_filled(ops, x, fill), axis=axis, keepdims=keepdims)
    return ops.where(ops.all(ops.isnan(x), axis=axis, keepdims=keepdims), all_nan, result)


def nanmax(ops, x, axis=None, keepdims=False):
    return _nan_ignoring(ops, x, axis, keepdims, ops.max, -math.inf, math.nan)


def nanmin(ops, x, axis=None, keepdims=False):
    return _nan_ignoring(ops, x, axis, keepdims, ops.min, math.inf, math.nan)


def nanargmax(ops, x, axis=None, keepdims=False):
    return _nan_ignoring(ops, x, axis, keepdims, ops.argmax, -math.inf, -1)


def nanargmin(ops, x, axis=None, keepdims=False):
    return _nan_ignoring(ops, x, axis, keepdims, ops.argmin, math.inf, -1)


def nancumsum(ops, x, axis=None, dtype=None):
    return ops.cumsum(_nan_filled(ops, x, 0.0), axis=axis, dtype=dtype)


def nancumprod(ops, x, axis=None, dtype=None):
    return ops.cumprod(_nan_filled(ops, x, 1.0), axis=axis, dtype=dtype)


# -- NaN-ignoring quantiles ----------------------------------------------------------------------
_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def _sorted_rows(ops, x, axes):
    """Float `x` with `axes` moved last and flattened, NaNs (as +inf) sorted to the row ends.

    Also returns the number of non-NaN entries of each row, shaped (..., 1).
    """
    rank = c.rank(ops, x)
    kept = [a for a in range(rank) if a not in axes]
    rows = ops.transpose(x, kept + list(axes))
    shape = c.shape(ops, x)
    reduced = [shape[a] for a in axes]
    length = None if None in reduced else math.prod(reduced)
    rows = ops.reshape(rows, c.static_shape([shape[a] for a in kept] + [length]))
    count = _count(ops, rows, -1, True)
    return ops.sort(_nan_filled(ops, rows, math.inf), axis=-1), count


def _pick(ops, rows, positions):
    """Entries of each row of `rows` at float `positions` (..., Q), clipped into the row."""
    length = c.shape(ops, rows)[-1]
    return ops.take_along_axis(rows, ops.clip(ops.cast(positions, "int32"), 0, length - 1), axis=-1)


def _interpolate(ops, rows, position, method):
    """The `method` quantile of sorted `rows` at fractional `position` (..., Q)."""
    if method == "lower":
        return _pick(ops, rows, ops.floor(position))
    if method == "higher":
        return _pick(ops, rows, ops.ceil(position))
    if method == "nearest":
        return _pick(ops, rows, ops.round(position))
    low, high = _pick(ops, rows, ops.floor(position)), _pick(ops, rows, ops.ceil(position))
    if method == "midpoint":
        return ops.multiply(ops.add(low, high), 0.5)
    fraction = ops.subtract(position, ops.floor(position))
    return ops.add(low, ops.multiply(ops.subtract(high, low), fraction))


def _quantile_shape(shape, axes, keepdims, q_shape):
    """The result shape of quantiles `q_shape` (() or (Q,)) of a `shape` tensor over `axes`."""
    if keepdims:
        kept = [1 if a in axes else d for a, d in enumerate(shape)]
    else:
        kept = [d for a, d in enumerate(shape) if a not in axes]
    return c.static_shape(list(q_shape) + kept)


def nanquantile(ops, x, q, axis=None, method="linear", keepdims=False):
    x = ops.convert_to_tensor(x)
    if not c.is_float(ops, x):
        return ops.quantile(x, q, axis=axis, method=method, keepdims=keepdims)
    if method not in _METHODS:
        raise ValueError(f"ops.nanquantile: method must be one of {_METHODS}, received {method!r}.")
    dtype = c.dtype_of(ops, x)
    work = dtypes.result_type(dtype, "float32")
    q = ops.convert_to_tensor(q, dtype=work)
    if c.rank(ops, q) > 1:
        raise ValueError(
            f"ops.nanquantile: q must be a scalar or 1-D, got shape {c.shape(ops, q)}."
        )
    axes = c.axes_of("nanquantile", axis, c.rank(ops, x))
    rows, count = _sorted_rows(ops, ops.cast(x, work), axes)
    position = ops.multiply(ops.reshape(q, (-1,)), ops.cast(ops.subtract(count, 1), work))
    values = ops.where(ops.equal(count, 0), math.nan, _interpolate(ops, rows, position, method))
    shape = _quantile_shape(c.shape(ops, x), axes, keepdims, c.shape(ops, q))
    return ops.cast(ops.reshape(ops.moveaxis(values, -1, 0), shape), dtype)


def nanmedian(ops, x, axis=None, keepdims=False):
    x = ops.convert_to_tensor(x)
    if not c.is_float(ops, x):
        return ops.median(x, axis=axis, keepdims=keepdims)
    return ops.nanquantile(x, 0.5, axis=axis, keepdims=keepdims)


def _fraction(ops, q):
    """Percentages `q` as fractions; Python numbers are divided exactly (in float64) on the host."""
    if isinstance(q, (int, float, list, tuple)):
        return np.asarray(q, dtype=np.float64) / 100.0
    return ops.divide(q, 100.0)


def nanpercentile(ops, x, q, axis=None, method="linear", keepdims=False):
    return ops.nanquantile(x, _fraction(ops, q), axis=axis, method=method, keepdims=keepdims)


def percentile(ops, x, q, axis=None, method="linear", keepdims=False):
    return ops.quantile(x, _fraction(ops, q), axis=axis, method=method, keepdims=keepdims)
