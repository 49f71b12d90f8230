"""Counting ops of the torch backend: unique values, bin counts and histograms."""

import builtins

import torch

from tripod.backends.torch.helpers import SUM_DTYPES, as_float, canonical_axis, widen
from tripod.backends.torch.tensors import COMPUTE_DTYPES, cast_to, convert_to_tensor, dtype_name


def unique(x, wanted, axis, size, fill_value):
    """numpy's unique of tensor `x` (sorted), with the (index, inverse, counts) outputs that
    `wanted` flags; int32 indices and counts; `size` pads or cuts as jax.numpy does."""
    if axis is None:
        flat, dim = x.reshape(-1), 0
    else:
        flat, dim = x, canonical_axis(axis, x.ndim)
    values, inverse, counts = torch.unique(
        widen(flat), sorted=True, return_inverse=True, return_counts=True, dim=dim
    )
    values = cast_to(values, x.dtype)
    positions = torch.arange(inverse.shape[0], device=x.device)
    first = torch.full((values.shape[dim],), inverse.shape[0], device=x.device)
    index = first.scatter_reduce(0, inverse, positions, "amin").to(torch.int32)
    inverse = inverse.reshape(x.shape if axis is None else (-1,)).to(torch.int32)
    # Padding: `fill_value` (default: the smallest value), its first index, zero counts.
    candidates = [
        (values, True, values.narrow(dim, 0, 1) if fill_value is None else fill_value),
        (index, wanted[0], index[:1]),
        (inverse, wanted[1], None),
        (counts.to(torch.int32), wanted[2], 0),
    ]
    chosen = [(out, fill) for out, want, fill in candidates if want]
    outputs = [out for out, _ in chosen]
    if size is not None and values.shape[dim]:
        outputs = _fix_size(outputs, [fill for _, fill in chosen], int(size), dim)
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


def _fix_size(outputs, fills, size, dim):
    """Truncate or pad unique's per-value outputs to `size`; a None fill marks one to keep."""
    fixed = []
    for i, (out, fill) in enumerate(zip(outputs, fills)):
        axis = dim if i == 0 else 0
        n = out.shape[axis]
        if fill is None or n == size:
            fixed.append(out)
        elif n > size:
            fixed.append(out.narrow(axis, 0, size))
        else:
            shape = list(out.shape)
            shape[axis] = size - n
            filler = convert_to_tensor(fill, dtype_name(out)).to(out.device).expand(shape)
            fixed.append(torch.cat([out, filler], dim=axis))
    return fixed


def bincount(x, weights, minlength):
    """Counts (or summed `weights`) of each non-negative integer in 1-D `x`, or per row of 2-D
    `x`: int32 counts, weights summed in their accumulation dtype."""
    if x.is_floating_point() or x.is_complex() or x.dtype == torch.bool:
        raise ValueError(f"bincount needs an integer tensor, got {dtype_name(x)}.")
    if x.ndim not in (1, 2):
        raise ValueError(f"bincount needs a 1-D or 2-D input, got rank {x.ndim}.")
    x = x.long()
    length = builtins.max(minlength, int(x.max()) + 1 if x.numel() else 0)
    if weights is None:
        dtype, values = torch.int32, torch.ones_like(x, dtype=torch.int32)
    else:
        values = convert_to_tensor(weights)
        dtype = SUM_DTYPES[values.dtype]
        values = values.to(COMPUTE_DTYPES.get(dtype, dtype)).expand(x.shape)
    rows = x if x.ndim == 2 else x.unsqueeze(0)
    out = torch.zeros(rows.shape[0], length, dtype=values.dtype, device=x.device)
    out = out.scatter_add(1, rows, values.reshape(rows.shape)).to(dtype)
    return out if x.ndim == 2 else out[0]


def histogram(x, bins, range):
    """numpy's histogram of 1-D `x`: int32 counts over `bins` equal bins (the last one closed)
    and the bin edges in x's float dtype."""
    if x.ndim != 1:
        raise ValueError(f"histogram needs a 1-D input, got rank {x.ndim}.")
    if not isinstance(bins, int) or bins <= 0:
        raise ValueError(f"bins must be a positive int, received {bins!r}.")
    values = cast_to(x, torch.float64)
    if range is not None:
        low, high = float(range[0]), float(range[1])
    elif values.numel():
        low, high = float(values.min()), float(values.max())
    else:
        low, high = 0.0, 1.0
    if low == high:
        low, high = low - 0.5, high + 0.5
    edges = torch.linspace(low, high, bins + 1, dtype=torch.float64, device=x.device)
    index = torch.bucketize(values, edges, right=True) - 1
    index = torch.where(values == high, bins - 1, index)
    inside = (index >= 0) & (index < bins)
    counts = torch.zeros(bins, dtype=torch.int32, device=x.device)
    counts = counts.index_add(0, index[inside], torch.ones_like(index[inside], dtype=torch.int32))
    return counts, edges.to(as_float(x).dtype)
