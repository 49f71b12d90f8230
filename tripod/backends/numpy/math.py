"""The numpy backend: math ops (special functions, FFTs, segment reductions, top_k)."""

import math

import numpy as np

from tripod.backends import dtypes
from tripod.backends.common import fourier
from tripod.backends.numpy import rules
from tripod.backends.numpy.core import convert_to_tensor

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

_erf64 = np.vectorize(math.erf, otypes=[np.float64])
_erfc64 = np.vectorize(math.erfc, otypes=[np.float64])


def erf(x):
    return rules.float_map(_erf64, x)


def erfc(x):
    return rules.float_map(_erfc64, x)


def _erfinv64(y):
    """Inverse error function in float64: a closed-form start refined by Newton steps on erf."""
    y = np.asarray(y, dtype=np.float64)
    inside = np.abs(y) < 1
    safe = np.where(inside, y, 0.0)
    # Winitzki's approximation (relative error < 2e-3) as the starting point.
    a = 0.147
    log_term = np.log1p(-safe * safe)
    first = 2.0 / (math.pi * a) + log_term / 2.0
    guess = np.sign(safe) * np.sqrt(np.sqrt(first * first - log_term / a) - first)
    for _ in range(4):
        guess = guess - (_erf64(guess) - safe) / (2.0 / math.sqrt(math.pi) * np.exp(-guess * guess))
    edge = np.where(y == 1, np.inf, np.where(y == -1, -np.inf, np.nan))
    return np.where(inside, guess, edge)


def erfinv(x):
    return rules.float_map(_erfinv64, x)


def rsqrt(x):
    return rules.float_map(lambda v: 1.0 / np.sqrt(v), x)


def logsumexp(x, axis=None, keepdims=False):
    dtype = rules.result(x, floating=True)
    x = rules.as_dtype(x, rules.work(dtype))
    axis = tuple(axis) if isinstance(axis, list) else axis
    peak = np.max(x, axis=axis, keepdims=True)
    peak = np.where(np.isfinite(peak), peak, 0)
    with rules.quiet():
        total = np.log(np.sum(np.exp(x - peak), axis=axis, keepdims=True)) + peak
    return rules.finish(total if keepdims else np.squeeze(total, axis=axis), dtype)


# -- segment reductions --------------------------------------------------------------------------
def _segment_reduce(ufunc, data, segment_ids, num_segments, identity):
    """Reduce rows of `data` sharing a segment id with `ufunc`; ids out of range are dropped."""
    data = convert_to_tensor(data)
    ids = np.asarray(convert_to_tensor(segment_ids)).astype(np.int64)
    if ids.ndim != 1 or ids.shape[0] != data.shape[0]:
        raise ValueError(
            f"segment_ids must be 1-D of length {data.shape[0]}, received shape {ids.shape}."
        )
    if num_segments is None:
        num_segments = int(ids.max()) + 1 if ids.size else 0
    count = int(num_segments)
    out = np.full((count,) + data.shape[1:], identity(data.dtype), dtype=data.dtype)
    keep = (ids >= 0) & (ids < count)
    ufunc.at(out, ids[keep], data[keep])
    return out


def _lowest(dtype):
    return -np.inf if dtypes.is_float(dtype) else np.iinfo(dtype).min


def _highest(dtype):
    return np.inf if dtypes.is_float(dtype) else np.iinfo(dtype).max


def segment_sum(data, segment_ids, num_segments=None, sorted=False):
    return _segment_reduce(np.add, data, segment_ids, num_segments, lambda d: 0)


def segment_prod(data, segment_ids, num_segments=None, sorted=False):
    return _segment_reduce(np.multiply, data, segment_ids, num_segments, lambda d: 1)


def segment_max(data, segment_ids, num_segments=None, sorted=False):
    return _segment_reduce(np.maximum, data, segment_ids, num_segments, _lowest)


def segment_min(data, segment_ids, num_segments=None, sorted=False):
    return _segment_reduce(np.minimum, data, segment_ids, num_segments, _highest)


def top_k(x, k, sorted=True):
    x = convert_to_tensor(x)
    if x.ndim == 0 or not 0 <= int(k) <= x.shape[-1]:
        raise ValueError(
            f"k={k} must lie in [0, {x.shape[-1] if x.ndim else 0}] for shape {x.shape}."
        )
    # A stable sort of the negated values keeps equal values in index order; NaN comes first.
    keys = -x.astype(np.float64) if x.dtype != bool else ~x
    order = np.lexsort((keys, ~np.isnan(keys)), axis=-1)
    indices = order[..., : int(k)]
    return np.take_along_axis(x, indices, axis=-1), rules.int32(indices)


# -- Fourier transforms: complex values travel as (real, imaginary) pairs -----------------------
def _complex_pair(x, name):
    """A (real, imag) pair as one complex array, and the float dtype of the parts."""
    real, imag = fourier.pair_parts(convert_to_tensor, x, name)
    dtype = rules.result(real, imag, floating=True)
    return real.astype(np.float64) + 1j * imag.astype(np.float64), dtype


def _split(z, dtype):
    return rules.finish(np.real(z), dtype), rules.finish(np.imag(z), dtype)


def fft(x):
    z, dtype = _complex_pair(x, "fft")
    return _split(np.fft.fft(z, axis=-1), dtype)


def fft2(x):
    z, dtype = _complex_pair(x, "fft2")
    return _split(np.fft.fft2(z, axes=(-2, -1)), dtype)


def ifft2(x):
    z, dtype = _complex_pair(x, "ifft2")
    return _split(np.fft.ifft2(z, axes=(-2, -1)), dtype)


def rfft(x, fft_length=None):
    dtype = rules.result(x, floating=True)
    x = rules.as_dtype(x, "float64")
    return _split(np.fft.rfft(x, n=None if fft_length is None else int(fft_length), axis=-1), dtype)


def irfft(x, fft_length=None):
    z, dtype = _complex_pair(x, "irfft")
    return rules.finish(
        np.fft.irfft(z, n=None if fft_length is None else int(fft_length), axis=-1), dtype
    )
