"""The jax backend: math ops (special functions, FFTs, segment reductions, top_k)."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy import special

from tripod.backends.common import fourier
from tripod.backends.jax.core import convert_to_tensor
from tripod.backends.jax.helpers import as_dtype, axis_arg, float_map, np_dtype, result_dtype

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
    return float_map(special.erf, x)


def erfc(x):
    return float_map(special.erfc, x)


def erfinv(x):
    return float_map(special.erfinv, x)


def rsqrt(x):
    return float_map(lax.rsqrt, x)


def logsumexp(x, axis=None, keepdims=False):
    return float_map(lambda v: jax.nn.logsumexp(v, axis=axis_arg(axis), keepdims=keepdims), x)


# -- segment reductions -----------------------------------------------------------------------


def _segment(reduce, data, segment_ids, num_segments, sorted):
    """Reduce rows of `data` sharing a segment id; ids outside [0, num_segments) are dropped."""
    data = convert_to_tensor(data)
    ids = convert_to_tensor(segment_ids).astype(jnp.int32)
    if ids.ndim != 1 or ids.shape[0] != data.shape[0]:
        raise ValueError(
            f"segment_ids must be 1-D of length {data.shape[0]}, received shape {ids.shape}."
        )
    if num_segments is None:
        num_segments = int(jnp.max(ids)) + 1 if ids.size else 0
    return reduce(data, ids, num_segments=int(num_segments), indices_are_sorted=bool(sorted))


def segment_sum(data, segment_ids, num_segments=None, sorted=False):
    return _segment(jax.ops.segment_sum, data, segment_ids, num_segments, sorted)


def segment_prod(data, segment_ids, num_segments=None, sorted=False):
    return _segment(jax.ops.segment_prod, data, segment_ids, num_segments, sorted)


def segment_max(data, segment_ids, num_segments=None, sorted=False):
    return _segment(jax.ops.segment_max, data, segment_ids, num_segments, sorted)


def segment_min(data, segment_ids, num_segments=None, sorted=False):
    return _segment(jax.ops.segment_min, data, segment_ids, num_segments, sorted)


def top_k(x, k, sorted=True):
    x = convert_to_tensor(x)
    if x.ndim == 0 or not 0 <= int(k) <= x.shape[-1]:
        raise ValueError(
            f"k={k} must lie in [0, {x.shape[-1] if x.ndim else 0}] for shape {x.shape}."
        )
    _, indices = lax.top_k(_ranking_keys(x), int(k))
    return jnp.take_along_axis(x, indices, axis=-1), indices.astype(jnp.int32)


def _ranking_keys(x):
    """`x` as `top_k` ranks it: bools as ints, and floats with every NaN positive (above +inf)
    and -0.0 as 0.0, which `lax.top_k`'s total order would place apart."""
    if x.dtype == jnp.bool_:
        return x.astype(jnp.int32)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        return x
    return jnp.where(jnp.isnan(x), jnp.nan, jnp.where(x == 0, 0, x)).astype(x.dtype)


# -- Fourier transforms: complex values travel as (real, imaginary) pairs --------------------


def _work(dtype):
    """The float dtype FFTs of a `dtype` result compute in."""
    return "float64" if dtype == "float64" else "float32"


def _complex_pair(x, name):
    """A (real, imag) pair as one complex tensor, and the float dtype of the parts."""
    real, imag = fourier.pair_parts(convert_to_tensor, x, name)
    dtype = result_dtype(real, imag, floating=True)
    return lax.complex(as_dtype(real, _work(dtype)), as_dtype(imag, _work(dtype))), dtype


def _split(z, dtype):
    return jnp.real(z).astype(np_dtype(dtype)), jnp.imag(z).astype(np_dtype(dtype))


def fft(x):
    z, dtype = _complex_pair(x, "fft")
    return _split(jnp.fft.fft(z, axis=-1), dtype)


def fft2(x):
    z, dtype = _complex_pair(x, "fft2")
    return _split(jnp.fft.fft2(z, axes=(-2, -1)), dtype)


def ifft2(x):
    z, dtype = _complex_pair(x, "ifft2")
    return _split(jnp.fft.ifft2(z, axes=(-2, -1)), dtype)


def rfft(x, fft_length=None):
    dtype = result_dtype(x, floating=True)
    x = as_dtype(x, _work(dtype))
    return _split(
        jnp.fft.rfft(x, n=None if fft_length is None else int(fft_length), axis=-1), dtype
    )


def irfft(x, fft_length=None):
    z, dtype = _complex_pair(x, "irfft")
    n = None if fft_length is None else int(fft_length)
    return jnp.fft.irfft(z, n=n, axis=-1).astype(np_dtype(dtype))
