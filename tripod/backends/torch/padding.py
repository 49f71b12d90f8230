"""numpy.pad's modes on torch tensors, for the torch backend's `pad` op.

Constant padding with one value is a single `F.pad`; every other form pads axis by axis as numpy
does, each statistic taken over the axis as padded so far.
"""

import builtins

import numpy as np
import torch
import torch.nn.functional as F

from tripod.backends.common import errors
from tripod.backends.torch.helpers import INT_DTYPES, filled, python_number, widen
from tripod.backends.torch.tensors import DTYPE_NAMES, current_device

_INDEX_MODES = ("edge", "wrap", "reflect", "symmetric")
_STAT_MODES = ("maximum", "minimum", "mean", "median")


def numpy_pad(x, pad_width, mode, constant_values):
    """Tensor `x` padded as `numpy.pad(x, pad_width, mode, constant_values=...)` would be."""
    errors.check_pad_args(mode, constant_values)
    widths = _pad_widths(pad_width, x.ndim)
    if mode in ("constant", "empty"):
        value = _to_host(0 if constant_values is None else constant_values)
        if not isinstance(value, list):
            flat = [w for before, after in reversed(widths) for w in (before, after)]
            return F.pad(widen(x), flat, value=python_number(value)).to(x.dtype)
    for axis, (before, after) in enumerate(widths):
        if before or after:
            x = _pad_axis(x, axis, before, after, mode, constant_values)
    return x


def _to_host(value):
    """Tensors, arrays and nested sequences of them as nested lists of Python numbers."""
    if isinstance(value, (torch.Tensor, np.ndarray)):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_to_host(v) for v in value]
    return value


def _pad_widths(pad_width, ndim):
    """numpy's pad_width forms (int, (n,), (b, a), ((b, a), ...)) as one (before, after) per
    axis, in plain Python so that compiled code sees constants."""
    widths = _to_host(pad_width)
    if not isinstance(widths, list):
        widths = [[widths]]
    elif not widths or not isinstance(widths[0], (list, tuple)):
        widths = [widths]
    if len(widths) not in (1, ndim) or builtins.any(len(w) not in (1, 2) for w in widths):
        raise ValueError(f"pad: pad_width {pad_width!r} does not fit a tensor of rank {ndim}.")
    pairs = [(int(w[0]), int(w[-1])) for w in widths] * (ndim if len(widths) == 1 else 1)
    if builtins.any(b < 0 or a < 0 for b, a in pairs):
        raise ValueError(f"pad: negative pad widths {pad_width!r}.")
    return pairs


def _pad_axis(x, axis, before, after, mode, constant_values):
    """`x` padded along one axis."""
    mode = "wrap" if mode == "circular" else mode
    if mode in _INDEX_MODES:
        if x.shape[axis] == 0:
            raise ValueError(f"pad: cannot pad an empty axis with mode {mode!r}.")
        index = _source_index(x.shape[axis], before, after, mode).to(x.device)
        return torch.index_select(x, axis, index)
    if mode == "constant":
        values = np.broadcast_to(np.asarray(_to_host(constant_values)), (x.ndim, 2))[axis]
        left, right = (_filler(x, axis, count, v) for count, v in zip((before, after), values))
    elif mode in _STAT_MODES:
        stat = _statistic(x, axis, mode)
        left, right = (_along(stat, axis, count) for count in (before, after))
    else:
        left, right = _ramps(x, axis, before, after)
    return torch.cat([left, x, right], dim=axis)


def _source_index(n, before, after, mode):
    """For each padded position along an axis of length `n`, the position it copies."""
    i = torch.arange(-before, n + after, device=current_device())
    if mode == "edge":
        return i.clamp(0, n - 1)
    if mode == "wrap":
        return torch.remainder(i, n)
    period = 2 * n - 2 if mode == "reflect" else 2 * n
    if period == 0:
        return torch.zeros_like(i)
    i = torch.remainder(i, period)
    return torch.where(i < n, i, period - i - (0 if mode == "reflect" else 1))


def _filler(x, axis, count, value):
    shape = list(x.shape)
    shape[axis] = count
    return filled(shape, python_number(np.asarray(value).item()), DTYPE_NAMES[x.dtype]).to(x.device)


def _along(stat, axis, count):
    """A keepdims statistic repeated `count` times along `axis`."""
    shape = list(stat.shape)
    shape[axis] = count
    return stat.expand(shape)


def _statistic(x, axis, mode):
    """The whole-axis statistic numpy pads with (rounded half to even for integers)."""
    if mode == "maximum":
        return torch.amax(widen(x), dim=axis, keepdim=True).to(x.dtype)
    if mode == "minimum":
        return torch.amin(widen(x), dim=axis, keepdim=True).to(x.dtype)
    exact = x if x.is_complex() else x.to(torch.float64)
    if mode == "mean":
        stat = torch.mean(exact, dim=axis, keepdim=True)
    else:
        stat = torch.quantile(exact, 0.5, dim=axis, keepdim=True)
    return (torch.round(stat) if x.dtype in INT_DTYPES else stat).to(x.dtype)


def _ramps(x, axis, before, after):
    """numpy's linear_ramp pads (end values 0): from 0 up to the edge values, and back down."""
    shape = [1] * x.ndim

    def steps(count):
        shape[axis] = count
        return torch.arange(count, dtype=torch.float64, device=x.device).reshape(shape)

    first = x.narrow(axis, 0, 1).to(torch.float64)
    last = x.narrow(axis, x.shape[axis] - 1, 1).to(torch.float64)
    left = first * steps(before) / builtins.max(before, 1)
    right = last * (after - 1 - steps(after)) / builtins.max(after, 1)
    if x.dtype in INT_DTYPES:
        left, right = torch.floor(left), torch.floor(right)
    return left.to(x.dtype), right.to(x.dtype)
