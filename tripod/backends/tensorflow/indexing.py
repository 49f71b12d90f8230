"""numpy-style indexing on TensorFlow tensors: `get_item`, `take_along_axis`, diagonals.

TensorFlow's own `__getitem__` takes ints, slices, None and Ellipsis; integer arrays and boolean
masks (numpy's advanced indexing) are done here with `tf.gather_nd`, following numpy's rules on
where the indexed dimensions land.
"""

import builtins

import numpy as np
import tensorflow as tf

from tripod.backends.common import errors
from tripod.backends.tensorflow import core


def wrap(indices, size):
    """Integer `indices` with negative values counted from the end of an axis of `size`."""
    if not indices.dtype.is_integer:
        raise TypeError(f"indices must be integers, received {indices.dtype.name}.")
    if indices.dtype not in (tf.int32, tf.int64):
        indices = tf.cast(indices, tf.int64)
    return tf.where(indices < 0, indices + tf.cast(size, indices.dtype), indices)


def band(x, keep):
    """A boolean mask over `x`'s last two axes: `keep(rows, cols)` of the index grids."""
    rows = tf.range(tf.shape(x)[-2])[:, None]
    cols = tf.range(tf.shape(x)[-1])[None, :]
    return keep(rows, cols)


def diagonal(x, offset, axis1, axis2):
    """numpy's `diagonal`: the diagonal of axes (axis1, axis2) becomes the last axis."""
    rank = x.shape.rank
    axis1, axis2 = (
        errors.check_axis("diagonal", axis1, rank),
        errors.check_axis("diagonal", axis2, rank),
    )
    if axis1 == axis2:
        raise ValueError("diagonal needs two different axes.")
    rest = [a for a in range(rank) if a not in (axis1, axis2)]
    x = tf.transpose(x, [axis1, axis2, *rest])
    rows, cols = tf.shape(x)[0], tf.shape(x)[1]
    row0, col0 = builtins.max(-offset, 0), builtins.max(offset, 0)
    steps = tf.range(tf.maximum(tf.minimum(rows - row0, cols - col0), 0))
    picked = tf.gather_nd(x, tf.stack([steps + row0, steps + col0], axis=-1))
    return tf.transpose(picked, [*range(1, len(rest) + 1), 0])


def take_along_axis(x, indices, axis):
    """numpy's `take_along_axis`; the non-`axis` dims of x and indices broadcast."""
    if axis is None:
        x, indices, axis = tf.reshape(x, [-1]), tf.reshape(indices, [-1]), 0
    rank = x.shape.rank
    axis = errors.check_axis("take_along_axis", axis, rank)
    if indices.shape.rank != rank:
        raise ValueError(
            f"indices must have the rank of x ({rank}), received {indices.shape.rank}."
        )
    x_shape, i_shape = tf.shape(x), tf.shape(indices)
    ones = tf.one_hot(axis, rank, on_value=1, off_value=0, dtype=tf.int32)
    common = tf.broadcast_dynamic_shape(x_shape * (1 - ones) + ones, i_shape * (1 - ones) + ones)
    x = tf.broadcast_to(x, common * (1 - ones) + x_shape * ones)
    indices = tf.broadcast_to(wrap(indices, x_shape[axis]), common * (1 - ones) + i_shape * ones)
    last = rank - 1
    perm = list(range(rank))
    perm[axis], perm[last] = last, axis
    picked = tf.gather(tf.transpose(x, perm), tf.transpose(indices, perm), axis=-1, batch_dims=last)
    return tf.transpose(picked, perm)


# -- get_item ------------------------------------------------------------------------------------
def _is_basic(part):
    """Whether TensorFlow's own `__getitem__` takes this key part."""
    if isinstance(part, (bool, np.bool_)):
        return False
    if isinstance(part, (builtins.slice, type(None), type(Ellipsis), int, np.integer)):
        return True
    return part.shape.rank == 0 and part.dtype.is_integer


def _as_index(part):
    """A key part as numpy's indexing sees it: arrays (from lists too) as tensors."""
    if isinstance(part, (bool, np.bool_)):
        raise IndexError("boolean scalar indices are not supported.")
    if isinstance(part, (builtins.slice, type(None), type(Ellipsis), int, np.integer)):
        return part
    return core.convert_to_tensor(part)


def get_item(x, key):
    key = tuple(_as_index(k) for k in (key if isinstance(key, tuple) else (key,)))
    if builtins.all(_is_basic(k) for k in key):
        return x[key]
    return _advanced(x, _expand_ellipsis(key, x.shape.rank))


def _consumed(part):
    """How many axes of the indexed tensor a key part uses."""
    if part is None or part is Ellipsis:
        return 0
    if isinstance(part, tf.Tensor) and part.dtype == tf.bool:
        return part.shape.rank
    return 1


def _expand_ellipsis(key, rank):
    """`key` with its Ellipsis (or an implied trailing one) written out as full slices."""
    fill = rank - builtins.sum(_consumed(k) for k in key)
    if fill < 0:
        raise IndexError(f"too many indices for a tensor of rank {rank}.")
    if builtins.sum(k is Ellipsis for k in key) > 1:
        raise IndexError("an index can only have a single ellipsis.")
    full = [builtins.slice(None)] * fill
    if Ellipsis in [k for k in key if not isinstance(k, tf.Tensor)]:
        at = next(i for i, k in enumerate(key) if k is Ellipsis and not isinstance(k, tf.Tensor))
        return key[:at] + tuple(full) + key[at + 1 :]
    return key + tuple(full)


def _advanced(x, key):
    """`x[key]` for a key (without Ellipsis) holding integer arrays or boolean masks."""
    basic, arrays, array_axes, axis, out_axis = [], [], [], 0, 0
    groups = []  # positions in `key` of the advanced parts, to test their adjacency
    for position, part in enumerate(key):
        if part is None:
            basic.append(None)
            out_axis += 1
        elif isinstance(part, builtins.slice):
            basic.append(part)
            axis, out_axis = axis + 1, out_axis + 1
        else:
            part = core.convert_to_tensor(part)
            if part.dtype == tf.bool:
                coords = tf.where(part)
                columns = [coords[:, i] for i in range(part.shape.rank)]
            else:
                columns = [part]
            for column in columns:
                basic.append(builtins.slice(None))
                arrays.append(wrap(column, tf.shape(x)[axis]))
                array_axes.append(out_axis)
                groups.append(position)
                axis, out_axis = axis + 1, out_axis + 1
    y = x[tuple(basic)]
    rank = y.shape.rank
    rest = [a for a in range(rank) if a not in array_axes]
    y = tf.transpose(y, array_axes + rest)
    arrays = [tf.cast(a, tf.int64) for a in arrays]
    shape = tf.shape(arrays[0])
    for a in arrays[1:]:
        shape = tf.broadcast_dynamic_shape(shape, tf.shape(a))
    index = tf.stack([tf.broadcast_to(a, shape) for a in arrays], axis=-1)
    picked = tf.gather_nd(y, index)
    if not _same_run(groups) or array_axes[0] == 0:
        return picked
    where = array_axes[0]
    broadcast_rank = picked.shape.rank - len(rest)
    perm = [
        *range(broadcast_rank, broadcast_rank + where),
        *range(broadcast_rank),
        *range(broadcast_rank + where, picked.shape.rank),
    ]
    return tf.transpose(picked, perm)


def _same_run(positions):
    """Whether the key positions of the advanced parts form one unbroken run."""
    distinct = sorted(set(positions))
    return distinct == list(range(distinct[0], distinct[0] + len(distinct)))
