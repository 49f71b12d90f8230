"""The torch backend: numpy-style reductions (sums and products, extremes, statistics,
cumulative sums, counts).

Dtypes follow `tripod.backends.dtypes` (Python scalars are weak). Unsigned 16/32/64-bit tensors,
which torch stores but barely computes with, are computed in a wider signed type and cast back.
"""

import builtins

import torch

from tripod.backends.common import dtype_rules
from tripod.backends.torch import counting
from tripod.backends.torch.helpers import (
    HALF_DTYPES,
    SUM_DTYPES,
    as_computable,
    as_float,
    axes_to_last,
    canonical_axes,
    canonical_axis,
    reduce_over,
    widen,
)
from tripod.backends.torch.tensors import (
    COMPUTE_DTYPES,
    cast_to,
    convert_to_tensor,
    dtype_name,
    to_torch_dtype,
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


# -- reductions -------------------------------------------------------------------------------
def sum(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    dtype = SUM_DTYPES.get(x.dtype, x.dtype)
    wide = COMPUTE_DTYPES.get(dtype)
    return cast_to(reduce_over(torch.sum, x, axis, keepdims, dtype=wide or dtype), dtype)


def prod(x, axis=None, keepdims=False, dtype=None):
    x = convert_to_tensor(x)
    out_dtype = to_torch_dtype(dtype) if dtype is not None else SUM_DTYPES.get(x.dtype, x.dtype)
    compute = COMPUTE_DTYPES.get(out_dtype, out_dtype)
    flat, kept = axes_to_last(cast_to(x, compute), axis)
    out = torch.prod(flat, dim=-1)
    return cast_to((out.reshape(kept) if keepdims else out), out_dtype)


def mean(x, axis=None, keepdims=False):
    x = as_float(x)
    if axis is not None and not keepdims and x.ndim:
        dims = canonical_axes(axis, x.ndim)
        if builtins.all(x.shape[d] == 1 for d in dims):
            return x.squeeze(dims)  # a mean of one value is that value: a view, no kernel
    compute = torch.float32 if x.dtype in HALF_DTYPES else x.dtype
    return cast_to(reduce_over(torch.mean, cast_to(x, compute), axis, keepdims), x.dtype)


def var(x, axis=None, keepdims=False):
    x = as_float(x)
    compute = torch.float32 if x.dtype in HALF_DTYPES else x.dtype
    out = reduce_over(torch.var, cast_to(x, compute), axis, keepdims, correction=0)
    return cast_to(out, x.dtype)  # a complex x keeps its dtype, as in the contract


def std(x, axis=None, keepdims=False):
    return torch.sqrt(var(x, axis, keepdims))


def _extreme(fn, x, axis, keepdims, initial):
    x = convert_to_tensor(x)
    wide = widen(x)
    if initial is not None:
        wide = _with_initial(wide, axis, initial)
    out = reduce_over(fn, wide, axis, keepdims)
    return cast_to(out.reshape(()) if x.ndim == 0 else out, x.dtype)


def _with_initial(x, axis, initial):
    """`x` with one more entry, `initial`, along every reduced axis (so empty axes reduce)."""
    x = x.reshape(1) if x.ndim == 0 else x
    for d in range(x.ndim) if axis is None else canonical_axes(axis, x.ndim):
        shape = list(x.shape)
        shape[d] = 1
        x = torch.cat([x, torch.full(shape, initial, dtype=x.dtype, device=x.device)], dim=d)
    return x


def max(x, axis=None, keepdims=False, initial=None):
    return _extreme(torch.amax, x, axis, keepdims, initial)


def min(x, axis=None, keepdims=False, initial=None):
    return _extreme(torch.amin, x, axis, keepdims, initial)


def amax(x, axis=None, keepdims=False):
    return max(x, axis=axis, keepdims=keepdims)


def amin(x, axis=None, keepdims=False):
    return min(x, axis=axis, keepdims=keepdims)


def all(x, axis=None, keepdims=False):
    return reduce_over(torch.all, cast_to(convert_to_tensor(x), torch.bool), axis, keepdims)


def any(x, axis=None, keepdims=False):
    return reduce_over(torch.any, cast_to(convert_to_tensor(x), torch.bool), axis, keepdims)


def count_nonzero(x, axis=None):
    x = convert_to_tensor(x)
    return reduce_over(torch.sum, x != 0, axis, False).to(torch.int32)


def _arg_extreme(fn, x, axis, keepdims):
    x = as_computable(x)
    if axis is None:
        out = fn(x.reshape(-1))
        return (out.reshape((1,) * x.ndim) if keepdims else out).to(torch.int32)
    axis = canonical_axis(axis, x.ndim)
    return fn(x, dim=axis, keepdim=keepdims).to(torch.int32)


def argmax(x, axis=None, keepdims=False):
    return _arg_extreme(torch.argmax, x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _arg_extreme(torch.argmin, x, axis, keepdims)


def _cumulative(fn, x, axis, dtype):
    """`fn` (a running total) in `cumulative_dtype`: a bool dtype, given or kept, counts in
    int32; a 0-d `x` is 1-D, as NumPy takes it."""
    x = convert_to_tensor(x)
    out_dtype = to_torch_dtype(
        dtype_rules.cumulative_dtype(dtype_name(x) if dtype is None else dtype)
    )
    if axis is None or x.ndim == 0:
        x, axis = x.reshape(-1), 0 if axis is None else axis
    compute = COMPUTE_DTYPES.get(out_dtype, out_dtype)
    return cast_to(fn(cast_to(x, compute), dim=int(axis)), out_dtype)


def cumsum(x, axis=None, dtype=None):
    return _cumulative(torch.cumsum, x, axis, dtype)


def cumprod(x, axis=None, dtype=None):
    return _cumulative(torch.cumprod, x, axis, dtype)


def quantile(x, q, axis=None, method="linear", keepdims=False):
    x = as_float(x)
    compute = torch.float64 if x.dtype == torch.float64 else torch.float32
    q = convert_to_tensor(q, dtype=compute)
    flat, kept = axes_to_last(cast_to(x, compute), axis)
    out = torch.quantile(flat, q, dim=-1, interpolation=method)
    if keepdims:
        out = out.reshape(q.shape + kept)
    return cast_to(out, x.dtype)


def median(x, axis=None, keepdims=False):
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


def trace(x, offset=0, axis1=0, axis2=1):
    x = convert_to_tensor(x)
    dtype = SUM_DTYPES.get(x.dtype, x.dtype)
    diagonal_ = torch.diagonal(widen(x), offset=offset, dim1=axis1, dim2=axis2)
    return cast_to(torch.sum(diagonal_, dim=-1, dtype=COMPUTE_DTYPES.get(dtype, dtype)), dtype)


def bincount(x, weights=None, minlength=0, sparse=False):
    if sparse:
        raise ValueError("bincount: sparse=True is not supported by the torch backend.")
    return counting.bincount(convert_to_tensor(x), weights, int(minlength))


def histogram(x, bins=10, range=None):
    return counting.histogram(convert_to_tensor(x), bins, range)
