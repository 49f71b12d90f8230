"""The tensorflow backend: numpy-style reductions (sums and products, extremes, statistics,
cumulative sums, counts).

Dtypes follow the reference (see `elementwise_kernels` for how operands promote and where
TensorFlow lacks kernels); sorting, statistics and layout helpers live in `array_kernels`,
indexing in `indexing`.
"""

import tensorflow as tf

from tripod.backends.common import dtype_rules
from tripod.backends.tensorflow import array_kernels
from tripod.backends.tensorflow import elementwise_kernels as ew
from tripod.backends.tensorflow.arrays import diagonal
from tripod.backends.tensorflow.tensors import (
    cast,
    convert_to_tensor,
    tf_dtype,
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


# -- reductions ---------------------------------------------------------------------------------------
def _accumulating(x):
    x = convert_to_tensor(x)
    return tf.cast(x, tf_dtype(dtype_rules.accumulation_dtype(x.dtype.name)))


def sum(x, axis=None, keepdims=False):
    x = _accumulating(x)
    return tf.reduce_sum(x, axis=array_kernels.reduction_axes(axis), keepdims=keepdims)


def prod(x, axis=None, keepdims=False, dtype=None):
    x = _accumulating(x) if dtype is None else cast(x, dtype)
    result = tf.reduce_prod(
        tf.cast(x, ew.work(x.dtype)), axis=array_kernels.reduction_axes(axis), keepdims=keepdims
    )
    return tf.cast(result, x.dtype)


def _float_reduce(fn, x, axis, keepdims):
    """`fn` over `x` as a float (ints give floatx), keeping the float's dtype."""
    dtype = ew.result(x, floating=True)
    return tf.cast(fn(cast(x, ew.work(dtype)), array_kernels.reduction_axes(axis), keepdims), dtype)


def _var(x, axis, keepdims):
    centered = x - tf.reduce_mean(x, axis=axis, keepdims=True)
    if x.dtype.is_complex:
        squares = tf.math.real(centered * tf.math.conj(centered))
    else:
        squares = tf.square(centered)
    return tf.reduce_mean(squares, axis=axis, keepdims=keepdims)


def mean(x, axis=None, keepdims=False):
    return _float_reduce(lambda x, a, k: tf.reduce_mean(x, axis=a, keepdims=k), x, axis, keepdims)


def var(x, axis=None, keepdims=False):
    return _float_reduce(_var, x, axis, keepdims)


def std(x, axis=None, keepdims=False):
    return _float_reduce(lambda x, a, k: tf.sqrt(_var(x, a, k)), x, axis, keepdims)


def median(x, axis=None, keepdims=False):
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


def quantile(x, q, axis=None, method="linear", keepdims=False):
    dtype = ew.result(x, floating=True)
    work = cast(x, tf.float64 if dtype == tf.float64 else tf.float32)
    return tf.cast(array_kernels.quantile(work, q, axis, method, keepdims), dtype)


def _extreme(reduce, bool_reduce, combine, op):
    def apply(x, axis=None, keepdims=False, initial=None):
        x = convert_to_tensor(x)
        if initial is None:
            array_kernels.check_nonempty(x, array_kernels.reduction_axes(axis), op)
        result = (bool_reduce if x.dtype == tf.bool else reduce)(
            x, axis=array_kernels.reduction_axes(axis), keepdims=keepdims
        )
        return result if initial is None else combine(result, cast(initial, x.dtype))

    return apply


_max = _extreme(tf.reduce_max, tf.reduce_any, ew.maximum, "max")


_min = _extreme(tf.reduce_min, tf.reduce_all, ew.minimum, "min")


def max(x, axis=None, keepdims=False, initial=None):
    return _max(x, axis, keepdims, initial)


def min(x, axis=None, keepdims=False, initial=None):
    return _min(x, axis, keepdims, initial)


def amax(x, axis=None, keepdims=False):
    return _max(x, axis, keepdims)


def amin(x, axis=None, keepdims=False):
    return _min(x, axis, keepdims)


def all(x, axis=None, keepdims=False):
    return tf.reduce_all(
        cast(x, "bool"), axis=array_kernels.reduction_axes(axis), keepdims=keepdims
    )


def any(x, axis=None, keepdims=False):
    return tf.reduce_any(
        cast(x, "bool"), axis=array_kernels.reduction_axes(axis), keepdims=keepdims
    )


def count_nonzero(x, axis=None):
    x = convert_to_tensor(x)
    return tf.reduce_sum(
        tf.cast(tf.not_equal(x, tf.zeros_like(x)), tf.int32),
        axis=array_kernels.reduction_axes(axis),
    )


def argmax(x, axis=None, keepdims=False):
    return array_kernels.arg_extreme(tf.argmax, convert_to_tensor(x), axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return array_kernels.arg_extreme(tf.argmin, convert_to_tensor(x), axis, keepdims)


def _cumulative(fn, x, axis, dtype):
    """`fn` (a running total) in `cumulative_dtype`: a bool dtype, given or kept, counts in
    int32; a 0-d `x` is 1-D, as NumPy takes it."""
    x = convert_to_tensor(x)
    dtype = tf_dtype(dtype_rules.cumulative_dtype(x.dtype.name if dtype is None else dtype))
    x = tf.cast(x, ew.work(dtype))
    if axis is None or x.shape.rank == 0:
        x, axis = array_kernels.flattened(x), 0 if axis is None else axis
    return tf.cast(fn(x, axis=axis), dtype)


def cumsum(x, axis=None, dtype=None):
    return _cumulative(tf.cumsum, x, axis, dtype)


def cumprod(x, axis=None, dtype=None):
    return _cumulative(tf.math.cumprod, x, axis, dtype)


def trace(x, offset=0, axis1=0, axis2=1):
    x = _accumulating(x)
    return tf.reduce_sum(diagonal(x, offset, axis1, axis2), axis=-1)


def bincount(x, weights=None, minlength=0, sparse=False):
    if sparse:
        raise ValueError("bincount(sparse=True) is not supported by the tensorflow backend.")
    x = convert_to_tensor(x)
    if not x.dtype.is_integer or x.shape.rank not in (1, 2):
        raise ValueError(
            f"bincount needs a 1-D or 2-D integer tensor, received {x.dtype.name} rank {x.shape.rank}."
        )
    if weights is None:
        dtype = tf.int32
    else:
        weights = convert_to_tensor(weights)
        dtype = tf_dtype(dtype_rules.accumulation_dtype(weights.dtype.name))
    return array_kernels.bincount(x, weights, minlength, dtype)


def histogram(x, bins=10, range=None):
    x = convert_to_tensor(x)
    if x.shape.rank != 1:
        raise ValueError(f"histogram needs a 1-D input, received rank {x.shape.rank}.")
    if not isinstance(bins, int) or bins <= 0:
        raise ValueError(f"bins must be a positive int, received {bins!r}.")
    counts, edges = array_kernels.histogram(tf.cast(x, tf.float64), bins, range)
    return counts, tf.cast(edges, ew.result(x, floating=True))
