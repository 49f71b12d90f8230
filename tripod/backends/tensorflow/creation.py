"""The tensorflow backend: numpy-style ops that make arrays (filled, ranges, grids, windows).

Dtypes follow the reference (see `elementwise_kernels` for how operands promote and where
TensorFlow lacks kernels); sorting, statistics and layout helpers live in `array_kernels`,
indexing in `indexing`.
"""

import tensorflow as tf

from tripod.backends.tensorflow import array_kernels, indexing
from tripod.backends.tensorflow import elementwise_kernels as ew
from tripod.backends.tensorflow.arrays import diagonal
from tripod.backends.tensorflow.tensors import (
    cast,
    convert_to_tensor,
    tf_dtype,
)

__all__ = [
    "arange",
    "diag",
    "diagflat",
    "eye",
    "full",
    "full_like",
    "linspace",
    "meshgrid",
    "ones",
    "ones_like",
    "tril",
    "triu",
    "zeros",
    "zeros_like",
]


# -- creation -------------------------------------------------------------------------------------
def zeros(shape, dtype=None):
    return tf.zeros(array_kernels.shape_arg(shape), tf_dtype(dtype))


def ones(shape, dtype=None):
    return tf.ones(array_kernels.shape_arg(shape), tf_dtype(dtype))


def full(shape, fill_value, dtype=None):
    return tf.broadcast_to(cast(fill_value, tf_dtype(dtype)), array_kernels.shape_arg(shape))


def _like_dtype(x, dtype):
    return x.dtype if dtype is None else tf_dtype(dtype)


def zeros_like(x, dtype=None):
    x = convert_to_tensor(x)
    return tf.zeros(tf.shape(x), _like_dtype(x, dtype))


def ones_like(x, dtype=None):
    x = convert_to_tensor(x)
    return tf.ones(tf.shape(x), _like_dtype(x, dtype))


def full_like(x, fill_value, dtype=None):
    x = convert_to_tensor(x)
    return tf.broadcast_to(cast(fill_value, _like_dtype(x, dtype)), tf.shape(x))


def eye(N, M=None, k=0, dtype=None):
    M = N if M is None else M
    return tf.cast(tf.equal(tf.range(N)[:, None] + k, tf.range(M)[None, :]), tf_dtype(dtype))


def arange(start, stop=None, step=None, dtype=None):
    step = 1 if step is None else step
    if dtype is None:
        dtype = ew.result(*(v for v in (start, stop, step) if v is not None))
    if stop is None:
        start, stop = 0, start
    start, stop, step = (tf.cast(convert_to_tensor(v), tf.float64) for v in (start, stop, step))
    count = tf.maximum(tf.cast(tf.math.ceil((stop - start) / step), tf.int32), 0)
    return tf.cast(start + tf.cast(tf.range(count), tf.float64) * step, tf_dtype(dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    float_dtype = ew.result(start, stop, floating=True)
    dtype = float_dtype if dtype is None else tf_dtype(dtype)
    samples, step = array_kernels.linspace(
        cast(start, tf.float64), cast(stop, tf.float64), num, endpoint, axis
    )
    if dtype.is_integer:
        samples = tf.floor(samples)
    samples = tf.cast(samples, dtype)
    return (samples, tf.cast(step, float_dtype)) if retstep else samples


def meshgrid(*x, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing must be 'xy' or 'ij', received {indexing!r}.")
    xs = [array_kernels.flattened(convert_to_tensor(v)) for v in x]
    shape = [tf.size(v) for v in xs]
    if indexing == "xy" and len(xs) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    grids = []
    for i, v in enumerate(xs):
        view = [1] * len(xs)
        view[1 - i if indexing == "xy" and i < 2 and len(xs) > 1 else i] = -1
        grids.append(tf.broadcast_to(tf.reshape(v, view), shape))
    return grids


def tril(x, k=0):
    x = convert_to_tensor(x)
    return tf.where(indexing.band(x, lambda rows, cols: cols <= rows + k), x, tf.zeros_like(x))


def triu(x, k=0):
    x = convert_to_tensor(x)
    return tf.where(indexing.band(x, lambda rows, cols: cols >= rows + k), x, tf.zeros_like(x))


def diag(x, k=0):
    x = convert_to_tensor(x)
    if x.shape.rank == 1:
        return tf.linalg.diag(x, k=k)
    if x.shape.rank == 2:
        return diagonal(x, offset=k)
    raise ValueError(f"diag needs a 1-D or 2-D input, received rank {x.shape.rank}.")


def diagflat(x, k=0):
    return tf.linalg.diag(array_kernels.flattened(convert_to_tensor(x)), k=k)
