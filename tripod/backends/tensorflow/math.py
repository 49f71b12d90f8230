"""The tensorflow backend: math ops (special functions, FFTs, segment reductions, top_k)."""

import numpy as np
import tensorflow as tf

from tripod.backends.common import fourier
from tripod.backends.tensorflow import elementwise_kernels as ew
from tripod.backends.tensorflow.tensors import cast, convert_to_tensor

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


def _float_map(fn, x):
    """`fn` on `x` as a float (ints give floatx), computed in float32 for half floats."""
    return ew.unary(fn, x, floating=True)


def erf(x):
    return _float_map(tf.math.erf, x)


def erfc(x):
    return _float_map(tf.math.erfc, x)


def erfinv(x):
    return _float_map(tf.math.erfinv, x)


def rsqrt(x):
    return _float_map(tf.math.rsqrt, x)


def logsumexp(x, axis=None, keepdims=False):
    dtype = ew.result(x, floating=True)
    x = cast(x, ew.work(dtype))
    return tf.cast(
        tf.math.reduce_logsumexp(
            x, axis=axis if axis is None or isinstance(axis, int) else list(axis), keepdims=keepdims
        ),
        dtype,
    )


# -- segment reductions --------------------------------------------------------------------------
def _segment(reduce, empty):
    """A segment reduction: ids outside [0, num_segments) are dropped; empty segments hold
    `empty(dtype)` (the reduction's identity)."""

    def apply(data, segment_ids, num_segments=None, sorted=False):
        data = convert_to_tensor(data)
        ids = tf.cast(convert_to_tensor(segment_ids), tf.int32)
        if ids.shape.rank != 1 or (data.shape.rank and ids.shape[0] not in (None, data.shape[0])):
            raise ValueError(
                f"segment_ids must be 1-D of length {data.shape[0]}, received {ids.shape}."
            )
        if num_segments is None:
            num_segments = tf.reduce_max(ids) + 1 if ids.shape[0] != 0 else 0
        count = tf.cast(num_segments, tf.int32)
        ids = tf.where(ids < count, ids, -tf.ones_like(ids))
        work = tf.int32 if data.dtype == tf.bool else data.dtype
        result = reduce(tf.cast(data, work), ids, count)
        filled = tf.math.unsorted_segment_sum(tf.ones_like(ids), ids, count)
        filled = tf.reshape(
            filled > 0, tf.concat([[-1], tf.ones([data.shape.rank - 1], tf.int32)], 0)
        )
        result = tf.where(filled, result, tf.cast(empty(data.dtype), work))
        return tf.cast(result, data.dtype)

    return apply


def _lowest(dtype):
    if dtype == tf.bool:
        return 0
    return -np.inf if dtype.is_floating else dtype.min


def _highest(dtype):
    if dtype == tf.bool:
        return 1
    return np.inf if dtype.is_floating else dtype.max


_segment_sum = _segment(tf.math.unsorted_segment_sum, lambda dtype: 0)
_segment_prod = _segment(tf.math.unsorted_segment_prod, lambda dtype: 1)
_segment_max = _segment(tf.math.unsorted_segment_max, _lowest)
_segment_min = _segment(tf.math.unsorted_segment_min, _highest)


def segment_sum(data, segment_ids, num_segments=None, sorted=False):
    return _segment_sum(data, segment_ids, num_segments, sorted)


def segment_prod(data, segment_ids, num_segments=None, sorted=False):
    return _segment_prod(data, segment_ids, num_segments, sorted)


def segment_max(data, segment_ids, num_segments=None, sorted=False):
    return _segment_max(data, segment_ids, num_segments, sorted)


def segment_min(data, segment_ids, num_segments=None, sorted=False):
    return _segment_min(data, segment_ids, num_segments, sorted)


def top_k(x, k, sorted=True):
    x = convert_to_tensor(x)
    size = x.shape[-1] if x.shape.rank else 0
    if x.shape.rank == 0 or (size is not None and not 0 <= int(k) <= size):
        raise ValueError(f"k={k} must lie in [0, {size}] for shape {x.shape}.")
    keys = _ranking_keys(x) if x.dtype.is_floating else x
    _, indices = tf.math.top_k(tf.cast(keys, tf.int8) if x.dtype == tf.bool else keys, k=k)
    return tf.gather(x, indices, batch_dims=x.shape.rank - 1), indices


def _ranking_keys(x):
    """Integer keys that order float `x` as `top_k` ranks it, NaN above +inf and -0.0 equal to
    0.0 (TensorFlow's `top_k` of floats puts NaNs anywhere): the bits of each value, with the
    order of negative values reversed."""
    x = tf.cast(x, tf.float64 if x.dtype == tf.float64 else tf.float32)
    bits = tf.bitcast(tf.where(tf.equal(x, 0), tf.zeros_like(x), x), ew.SAME_WIDTH_INT[x.dtype])
    largest = bits.dtype.max
    keys = tf.where(bits < 0, tf.bitwise.bitwise_xor(bits, largest), bits)
    return tf.where(tf.math.is_nan(x), largest, keys)


# -- Fourier transforms: complex values travel as (real, imaginary) pairs -----------------------
def _complex_pair(x, name):
    """A (real, imag) pair as one complex128 tensor, and the float dtype of the parts."""
    real, imag = fourier.pair_parts(convert_to_tensor, x, name)
    dtype = ew.result(real, imag, floating=True)
    return tf.complex(tf.cast(real, tf.float64), tf.cast(imag, tf.float64)), dtype


def _split(z, dtype):
    return tf.cast(tf.math.real(z), dtype), tf.cast(tf.math.imag(z), dtype)


def fft(x):
    z, dtype = _complex_pair(x, "fft")
    return _split(tf.signal.fft(z), dtype)


def fft2(x):
    z, dtype = _complex_pair(x, "fft2")
    return _split(tf.signal.fft2d(z), dtype)


def ifft2(x):
    z, dtype = _complex_pair(x, "ifft2")
    return _split(tf.signal.ifft2d(z), dtype)


def _length(fft_length, default):
    return tf.reshape(tf.cast(default if fft_length is None else fft_length, tf.int32), [1])


def rfft(x, fft_length=None):
    dtype = ew.result(x, floating=True)
    x = cast(x, tf.float64)
    return _split(tf.signal.rfft(x, _length(fft_length, tf.shape(x)[-1])), dtype)


def irfft(x, fft_length=None):
    z, dtype = _complex_pair(x, "irfft")
    length = _length(fft_length, 2 * (tf.shape(z)[-1] - 1))
    return tf.cast(tf.signal.irfft(z, length), dtype)
