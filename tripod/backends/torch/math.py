"""The torch backend: math ops (special functions, segment reductions, top-k, FFTs)."""

import torch

from tripod.backends.torch.helpers import as_float, reduce_over
from tripod.backends.torch.tensors import (
    COMPUTE_DTYPES,
    cast_to,
    convert_to_tensor,
    dtype_name,
    torch_result_type,
)

__all__ = [
    "erf",
    "erfc",
    "erfinv",
    "fft",
    "fft2",
    "ifft2",
    "irfft",
    "logsumexp",
    "rfft",
    "rsqrt",
    "segment_max",
    "segment_min",
    "segment_prod",
    "segment_sum",
    "top_k",
]


def erf(x):
    return torch.special.erf(as_float(x))


def erfc(x):
    return torch.special.erfc(as_float(x))


def erfinv(x):
    return torch.special.erfinv(as_float(x))


def rsqrt(x):
    return torch.rsqrt(as_float(x))


def logsumexp(x, axis=None, keepdims=False):
    x = as_float(x)
    if axis is None:
        out = torch.logsumexp(x.reshape(-1), dim=0)
        return out.reshape((1,) * x.ndim) if keepdims else out
    return reduce_over(torch.logsumexp, x, axis, keepdims)


def top_k(x, k, sorted=True):
    x = convert_to_tensor(x)
    if not 0 <= int(k) <= x.shape[-1]:
        raise ValueError(f"top_k: k={k} is out of range for a last axis of {x.shape[-1]}.")
    wide = COMPUTE_DTYPES.get(x.dtype, torch.uint8 if x.dtype == torch.bool else x.dtype)
    # A stable descending sort keeps ties in index order, as the reference does.
    values, indices = torch.sort(x.to(wide), dim=-1, descending=True, stable=True)
    return values[..., : int(k)].to(x.dtype), indices[..., : int(k)].to(torch.int32)


# -- segment reductions -----------------------------------------------------------------------
def _segment(reduce, data, segment_ids, num_segments, fill):
    """`data` reduced over rows sharing a segment id; empty segments hold `fill(dtype)`."""
    data = convert_to_tensor(data)
    ids = convert_to_tensor(segment_ids).long()
    if ids.ndim != 1 or ids.shape[0] != data.shape[0]:
        raise ValueError(
            f"segment_ids must be 1-D with one id per row of data; got shape {tuple(ids.shape)} "
            f"for data of shape {tuple(data.shape)}."
        )
    if num_segments is None:
        num_segments = int(ids.max()) + 1 if ids.numel() else 0
    num_segments = int(num_segments)
    compute = COMPUTE_DTYPES.get(
        data.dtype, torch.uint8 if data.dtype == torch.bool else data.dtype
    )
    rows = data.to(compute)
    keep = (ids >= 0) & (ids < num_segments)
    ids, rows = ids[keep], rows[keep]
    out = torch.full(
        (num_segments, *data.shape[1:]), fill(compute), dtype=compute, device=data.device
    )
    index = ids.reshape(-1, *[1] * (data.ndim - 1)).expand_as(rows)
    return cast_to(out.scatter_reduce(0, index, rows, reduce, include_self=False), data.dtype)


def _lowest(dtype):
    return -float("inf") if dtype.is_floating_point else torch.iinfo(dtype).min


def _highest(dtype):
    return float("inf") if dtype.is_floating_point else torch.iinfo(dtype).max


def segment_sum(data, segment_ids, num_segments=None, sorted=False):
    return _segment("sum", data, segment_ids, num_segments, lambda dtype: 0)


def segment_prod(data, segment_ids, num_segments=None, sorted=False):
    return _segment("prod", data, segment_ids, num_segments, lambda dtype: 1)


def segment_max(data, segment_ids, num_segments=None, sorted=False):
    return _segment("amax", data, segment_ids, num_segments, _lowest)


def segment_min(data, segment_ids, num_segments=None, sorted=False):
    return _segment("amin", data, segment_ids, num_segments, _highest)


# -- FFTs: complex values travel as (real, imag) pairs ----------------------------------------
def _complex(x):
    """A (real, imag) pair as one complex tensor, and the float dtype to return."""
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError("Expected x to be a tuple (real, imag) of two tensors.")
    real, imag = (convert_to_tensor(part) for part in x)
    if real.shape != imag.shape:
        raise ValueError(
            f"The real and imaginary parts differ in shape: {tuple(real.shape)} vs "
            f"{tuple(imag.shape)}."
        )
    dtype = torch_result_type(dtype_name(real), dtype_name(imag), float)
    compute = torch.float64 if dtype == torch.float64 else torch.float32
    return torch.complex(real.to(compute), imag.to(compute)), dtype


def _pair(z, dtype):
    return cast_to(torch.real(z), dtype), cast_to(torch.imag(z), dtype)


def _real_input(x):
    x = convert_to_tensor(x)
    dtype = x.dtype if x.is_floating_point() else as_float(x).dtype
    compute = torch.float64 if dtype == torch.float64 else torch.float32
    return x.to(compute), dtype


def fft(x):
    z, dtype = _complex(x)
    return _pair(torch.fft.fft(z, dim=-1), dtype)


def fft2(x):
    z, dtype = _complex(x)
    return _pair(torch.fft.fft2(z, dim=(-2, -1)), dtype)


def ifft2(x):
    z, dtype = _complex(x)
    return _pair(torch.fft.ifft2(z, dim=(-2, -1)), dtype)


def rfft(x, fft_length=None):
    x, dtype = _real_input(x)
    n = None if fft_length is None else int(fft_length)
    return _pair(torch.fft.rfft(x, n=n, dim=-1), dtype)


def irfft(x, fft_length=None):
    z, dtype = _complex(x)
    n = None if fft_length is None else int(fft_length)
    return cast_to(torch.fft.irfft(z, n=n, dim=-1), dtype)
