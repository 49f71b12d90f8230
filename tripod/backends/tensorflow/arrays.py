"""The tensorflow backend: numpy-style ops on whole arrays (shape, joins and splits,
indexing, sorting, products).

Dtypes follow the reference (see `elementwise_kernels` for how operands promote and where
TensorFlow lacks kernels); sorting, statistics and layout helpers live in `array_kernels`,
indexing in `indexing`.
"""

import builtins
import functools

import tensorflow as tf

from tripod.backends.common import errors
from tripod.backends.tensorflow import array_kernels, indexing
from tripod.backends.tensorflow import elementwise_kernels as ew
from tripod.backends.tensorflow.elementwise import multiply
from tripod.backends.tensorflow.tensors import (
    cast,
    convert_to_tensor,
    kind_of,
    promote,
    tf_dtype,
)

__all__ = [
    "append",
    "argpartition",
    "argsort",
    "array_split",
    "broadcast_to",
    "concatenate",
    "correlate",
    "diagonal",
    "diff",
    "digitize",
    "dot",
    "einsum",
    "expand_dims",
    "flip",
    "get_item",
    "isin",
    "matmul",
    "nonzero",
    "pad",
    "repeat",
    "reshape",
    "roll",
    "searchsorted",
    "slogdet",
    "sort",
    "split",
    "squeeze",
    "stack",
    "take",
    "take_along_axis",
    "tensordot",
    "tile",
    "transpose",
    "unique",
    "unravel_index",
    "vectorize",
    "view",
    "where",
]


def _check_axis(op, axis, x):
    return errors.check_axis(op, axis, x.shape.rank)


def isin(x1, x2, assume_unique=False, invert=False):
    dtype = ew.work(ew.result(x1, x2))
    x1, x2 = cast(x1, dtype), cast(x2, dtype)
    found = tf.reduce_any(tf.equal(x1[..., None], array_kernels.flattened(x2)), axis=-1)
    return tf.logical_not(found) if invert else found


def diagonal(x, offset=0, axis1=0, axis2=1):
    return indexing.diagonal(convert_to_tensor(x), offset, axis1, axis2)


def diff(a, n=1, axis=-1):
    a = convert_to_tensor(a)
    axis = _check_axis("diff", axis, a)
    for _ in range(n):
        length = tf.shape(a)[axis]
        head = tf.gather(a, tf.range(1, length), axis=axis)
        tail = tf.gather(a, tf.range(length - 1), axis=axis)
        a = tf.not_equal(head, tail) if a.dtype == tf.bool else ew.subtract(head, tail)
    return a


# -- products -------------------------------------------------------------------------------------------
def _matmul_dtype(operands):
    """int8 products accumulate in int32 (as in Keras); other operands promote."""
    if builtins.all(kind_of(x) == "int8" for x in operands):
        return tf.int32
    return ew.result(*operands)


def _product_dtype(dtype):
    """The dtype a product of `dtype` operands is computed in: bfloat16 stays (TensorFlow's
    kernels accumulate it in float32), as float16 does on a GPU; float16 on a CPU, where Eigen
    accumulates it in float16, goes through float32."""
    if dtype == tf.float16 and not _gpu_visible():
        return tf.float32
    return dtype


@functools.cache
def _gpu_visible():
    return bool(tf.config.list_logical_devices("GPU"))


def _contract(fn, dtype, *operands):
    """`fn` (a matmul-like product) over `operands` as `dtype`, computed where TF has kernels."""
    work = ew.WIDE_INT.get(dtype, _product_dtype(dtype))
    if dtype == tf.bool:
        work = tf.int32
    elif builtins.all(kind_of(x) == "int8" for x in operands):
        work = tf.float64  # exact for int8 products, and a BLAS kernel (integer ones are loops)
    result = fn(*(cast(x, work) for x in operands))
    if dtype == tf.bool:
        return result > 0
    return tf.cast(result, dtype)


def matmul(x1, x2):
    dtype = _matmul_dtype((x1, x2))
    x1, x2 = convert_to_tensor(x1), convert_to_tensor(x2)
    if x1.shape.rank == 0 or x2.shape.rank == 0:
        raise ValueError("matmul operands must have at least one dimension.")
    return _contract(array_kernels.matmul, dtype, x1, x2)


def dot(x1, x2):
    dtype = ew.result(x1, x2)
    x1, x2 = convert_to_tensor(x1), convert_to_tensor(x2)
    if x1.shape.rank == 0 or x2.shape.rank == 0:
        return multiply(x1, x2)
    axes = [[-1], [0]] if x2.shape.rank == 1 else [[-1], [-2]]
    return _contract(lambda a, b: array_kernels.tensordot(a, b, axes), dtype, x1, x2)


def tensordot(x1, x2, axes=2):
    return _contract(lambda a, b: array_kernels.tensordot(a, b, axes), ew.result(x1, x2), x1, x2)


def einsum(subscripts, *operands, **kwargs):
    dtype = _matmul_dtype(operands)
    return _contract(lambda *xs: tf.einsum(subscripts, *xs, **kwargs), dtype, *operands)


def slogdet(x):
    dtype = ew.result(x, floating=True)
    sign, logdet = tf.linalg.slogdet(cast(x, ew.work(dtype)))
    return tf.cast(sign, dtype), tf.cast(logdet, dtype)


def correlate(x1, x2, mode="valid"):
    dtype = ew.result(x1, x2, floating=True)
    x1, x2 = cast(x1, ew.work(dtype)), cast(x2, ew.work(dtype))
    return tf.cast(array_kernels.correlate(x1, x2, mode), dtype)


# -- shape and layout ------------------------------------------------------------------------------
def reshape(x, newshape):
    return tf.reshape(convert_to_tensor(x), array_kernels.shape_arg(newshape))


def broadcast_to(x, shape):
    return tf.broadcast_to(convert_to_tensor(x), array_kernels.shape_arg(shape))


def expand_dims(x, axis):
    x = convert_to_tensor(x)
    axes = array_kernels.reduction_axes(axis)
    rank = x.shape.rank + len(axes)
    for a in sorted(errors.check_axis("expand_dims", a, rank) for a in axes):
        x = tf.expand_dims(x, a)
    return x


def squeeze(x, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        return tf.squeeze(x)
    axes = [_check_axis("squeeze", a, x) for a in array_kernels.reduction_axes(axis)]
    if builtins.any(x.shape[a] not in (1, None) for a in axes):
        raise ValueError(f"cannot squeeze axes {axis} of a tensor of shape {x.shape}.")
    return tf.squeeze(x, axes)


def transpose(x, axes=None):
    return tf.transpose(convert_to_tensor(x), None if axes is None else list(axes))


def flip(x, axis=None):
    x = convert_to_tensor(x)
    axes = range(x.shape.rank) if axis is None else array_kernels.reduction_axes(axis)
    return tf.reverse(x, [_check_axis("flip", a, x) for a in axes])


def roll(x, shift, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        return tf.reshape(tf.roll(array_kernels.flattened(x), shift, 0), tf.shape(x))
    return tf.roll(x, shift, axis)


def tile(x, repeats):
    return array_kernels.tile(convert_to_tensor(x), repeats)


def repeat(x, repeats, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        x, axis = array_kernels.flattened(x), 0
    return tf.repeat(x, repeats, axis=axis)


def concatenate(xs, axis=0):
    xs = promote(*xs)
    if axis is None:
        xs, axis = [array_kernels.flattened(x) for x in xs], 0
    return tf.concat(xs, axis=axis)


def append(x1, x2, axis=None):
    return concatenate([x1, x2], axis=axis)


def stack(x, axis=0):
    return tf.stack(promote(*x), axis=axis)


def split(x, indices_or_sections, axis=0):
    return array_kernels.split(convert_to_tensor(x), indices_or_sections, axis, even=True)


def array_split(x, indices_or_sections, axis=0):
    return array_kernels.split(convert_to_tensor(x), indices_or_sections, axis, even=False)


def pad(x, pad_width, mode="constant", constant_values=None):
    return array_kernels.pad(convert_to_tensor(x), pad_width, mode, constant_values)


def view(x, dtype=None):
    x = convert_to_tensor(x)
    return tf.identity(x) if dtype is None else array_kernels.view(x, tf_dtype(dtype))


# -- indexing, sorting, searching ----------------------------------------------------------------
def get_item(x, key):
    return indexing.get_item(convert_to_tensor(x), key)


def take(x, indices, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        x, axis = array_kernels.flattened(x), 0
    axis = _check_axis("take", axis, x)
    return tf.gather(x, indexing.wrap(convert_to_tensor(indices), tf.shape(x)[axis]), axis=axis)


def take_along_axis(x, indices, axis=None):
    return indexing.take_along_axis(convert_to_tensor(x), convert_to_tensor(indices), axis)


def where(condition, x1=None, x2=None):
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError("where needs both x1 and x2, or neither.")
    x1, x2 = promote(x1, x2)
    return tf.where(cast(condition, "bool"), x1, x2)


def nonzero(x):
    x = convert_to_tensor(x)
    found = tf.cast(tf.where(tf.not_equal(x, tf.zeros_like(x))), tf.int32)
    return tuple(found[:, i] for i in range(x.shape.rank))


def _flat_if_no_axis(name, x, axis, allowed=()):
    """`x` and `axis` for sorting op `name`: `x` flattened when `axis` is None; the 0-d axes
    NumPy refuses are a ValueError."""
    x = convert_to_tensor(x)
    errors.check_scalar_axis(name, axis, x.shape.rank, allowed)
    return (array_kernels.flattened(x), -1) if axis is None else (x, axis)


def sort(x, axis=-1):
    return array_kernels.sort(*_flat_if_no_axis("sort", x, axis))


def argsort(x, axis=-1):
    x, axis = _flat_if_no_axis("argsort", x, axis, allowed=(-1, 0))
    if x.shape.rank == 0:
        return tf.zeros((), tf.int32)
    return array_kernels.argsort(x, axis)


def argpartition(x, kth, axis=-1):
    x = convert_to_tensor(x)
    axis = _check_axis("argpartition", axis, x)
    size = x.shape[axis]
    if size is not None and not -size <= int(kth) < size:
        raise ValueError(f"kth={kth} is out of bounds for an axis of size {size}.")
    return array_kernels.argsort(x, axis)


def searchsorted(sorted_sequence, values, side="left"):
    sorted_sequence = convert_to_tensor(sorted_sequence)
    if sorted_sequence.shape.rank != 1:
        raise ValueError(
            f"sorted_sequence must be 1-D, received rank {sorted_sequence.shape.rank}."
        )
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', received {side!r}.")
    dtype = ew.work(ew.result(sorted_sequence, values))
    return array_kernels.searchsorted(cast(sorted_sequence, dtype), cast(values, dtype), side)


def digitize(x, bins):
    dtype = ew.work(ew.result(x, bins))
    return array_kernels.digitize(cast(x, dtype), cast(bins, dtype))


def unravel_index(indices, shape):
    indices = tf.cast(convert_to_tensor(indices), tf.int64)
    coords = []
    for dim in reversed(list(array_kernels.shape_arg(shape))):
        dim = tf.cast(dim, tf.int64)
        coords.append(tf.cast(tf.math.floormod(indices, dim), tf.int32))
        indices = tf.math.floordiv(indices, dim)
    return tuple(reversed(coords))


def unique(
    x,
    sorted=True,
    return_index=False,
    return_inverse=False,
    return_counts=False,
    axis=None,
    size=None,
    fill_value=None,
):
    values, index, inverse, counts = array_kernels.unique(
        convert_to_tensor(x), axis, size, fill_value
    )
    wanted = ((index, return_index), (inverse, return_inverse), (counts, return_counts))
    extras = [v for v, want in wanted if want]
    return (values, *extras) if extras else values


def vectorize(pyfunc, *, excluded=None, signature=None):
    return array_kernels.vectorize(pyfunc, excluded, signature)
