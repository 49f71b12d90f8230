"""The jax backend: numpy-style ops on whole arrays (shape, joins and splits, indexing, sorting,
products)."""

import builtins

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tripod.backends.common import errors, variables
from tripod.backends.jax import symbolic
from tripod.backends.jax.core import convert_to_tensor
from tripod.backends.jax.helpers import (
    INDEX_DTYPE,
    as_index,
    axis_arg,
    np_dtype,
    promote,
    promote_float,
    shape_arg,
    to_float,
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


def append(x1, x2, axis=None):
    return jnp.append(*promote(x1, x2), axis=axis)


def broadcast_to(x, shape):
    return jnp.broadcast_to(convert_to_tensor(x), shape_arg(shape))


def concatenate(xs, axis=0):
    return jnp.concatenate(promote(*xs), axis=axis)


def stack(x, axis=0):
    return jnp.stack(promote(*x), axis=axis)


def expand_dims(x, axis):
    return jnp.expand_dims(convert_to_tensor(x), axis_arg(axis))


def squeeze(x, axis=None):
    return jnp.squeeze(convert_to_tensor(x), axis_arg(axis))


def reshape(x, newshape):
    newshape = (int(newshape),) if isinstance(newshape, (int, np.integer)) else newshape
    return jnp.reshape(convert_to_tensor(x), symbolic.reshape_target(newshape))


def transpose(x, axes=None):
    return jnp.transpose(convert_to_tensor(x), axis_arg(axes))


def flip(x, axis=None):
    return jnp.flip(convert_to_tensor(x), axis_arg(axis))


def roll(x, shift, axis=None):
    return jnp.roll(convert_to_tensor(x), shift, axis_arg(axis))


def tile(x, repeats):
    return jnp.tile(convert_to_tensor(x), repeats)


def repeat(x, repeats, axis=None):
    return jnp.repeat(convert_to_tensor(x), _static(repeats), axis=axis)


def split(x, indices_or_sections, axis=0):
    return jnp.split(convert_to_tensor(x), _sections(indices_or_sections), axis=axis)


def array_split(x, indices_or_sections, axis=0):
    return jnp.array_split(convert_to_tensor(x), _sections(indices_or_sections), axis=axis)


def _sections(indices_or_sections):
    if isinstance(indices_or_sections, (int, np.integer)):
        return int(indices_or_sections)
    return [int(i) for i in np.asarray(indices_or_sections).reshape(-1)]


def _static(value):
    """A Python int, list or array argument that shapes the output, as a host value.

    Tensors pass through unchanged (they must then be concrete, outside a trace).
    """
    return value if isinstance(value, (int, jax.Array)) else np.asarray(value)


def diagonal(x, offset=0, axis1=0, axis2=1):
    return jnp.diagonal(convert_to_tensor(x), offset, axis1, axis2)


def pad(x, pad_width, mode="constant", constant_values=None):
    errors.check_pad_args(mode, constant_values)
    x = convert_to_tensor(x)
    pad_width = np.asarray(pad_width).tolist()
    mode = "wrap" if mode == "circular" else mode  # the contract's other name, unknown to jnp.pad
    if constant_values is None:
        return jnp.pad(x, pad_width, mode=mode)
    return jnp.pad(x, pad_width, mode=mode, constant_values=constant_values)


def diff(a, n=1, axis=-1):
    return jnp.diff(convert_to_tensor(a), n=n, axis=axis)


def _key(key):
    """An indexing key as jax takes it: lists become index arrays, variables their values."""
    if isinstance(key, tuple):
        return tuple(_key(k) for k in key)
    if isinstance(key, list):
        return np.asarray(convert_to_tensor(key))
    if isinstance(key, variables.Variable):
        return key.value
    return key


def get_item(x, key):
    return convert_to_tensor(x)[_key(key)]


def take(x, indices, axis=None):
    x, indices = convert_to_tensor(x), convert_to_tensor(indices)
    if not isinstance(indices, jax.core.Tracer) and jnp.issubdtype(indices.dtype, jnp.integer):
        _check_in_bounds(indices, x.size if axis is None else x.shape[axis], axis or 0)
    return jnp.take(x, indices, axis=axis)


def _check_in_bounds(indices, size, axis):
    """Eagerly, an out-of-range index is NumPy's IndexError: `jnp.take` would fill it with NaN
    (or an integer's minimum) without a word. Traced indices cannot be checked."""
    host = np.asarray(indices)  # one copy to the host, no program compiled for the check
    bad = host[(host < -size) | (host >= size)]
    if bad.size:
        raise IndexError(f"index {bad.flat[0]} is out of bounds for axis {axis} with size {size}")


def take_along_axis(x, indices, axis=None):
    return jnp.take_along_axis(convert_to_tensor(x), convert_to_tensor(indices), axis=axis)


def where(condition, x1=None, x2=None):
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError("x1 and x2 must both be given, or both be None.")
    return jnp.where(convert_to_tensor(condition), *promote(x1, x2))


def nonzero(x):
    return tuple(as_index(i) for i in jnp.nonzero(convert_to_tensor(x)))


def sort(x, axis=-1):
    x = convert_to_tensor(x)
    errors.check_scalar_axis("sort", axis, x.ndim)
    return jnp.sort(x, axis=axis)


def argsort(x, axis=-1):
    x = convert_to_tensor(x)
    errors.check_scalar_axis("argsort", axis, x.ndim, allowed=(-1, 0))
    if axis is None:
        x, axis = x.reshape(-1), 0
    if x.ndim == 0:  # one position, whatever the axis (as the reference)
        return jnp.zeros((), INDEX_DTYPE)
    axis = errors.check_axis("argsort", axis, x.ndim)
    positions = lax.broadcasted_iota(INDEX_DTYPE, x.shape, axis)
    return lax.sort((x, positions), dimension=axis, num_keys=1, is_stable=True)[1]


def argpartition(x, kth, axis=-1):
    return as_index(jnp.argpartition(convert_to_tensor(x), kth, axis=axis))


def searchsorted(sorted_sequence, values, side="left"):
    sorted_sequence, values = promote(sorted_sequence, values)
    if sorted_sequence.ndim != 1:
        raise ValueError(f"sorted_sequence must be 1-D, received rank {sorted_sequence.ndim}.")
    return as_index(jnp.searchsorted(sorted_sequence, values, side=side))


def digitize(x, bins):
    x, bins = promote(x, bins)
    return as_index(jnp.digitize(x, bins))


def isin(x1, x2, assume_unique=False, invert=False):
    return jnp.isin(
        convert_to_tensor(x1), convert_to_tensor(x2), assume_unique=assume_unique, invert=invert
    )


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
    result = jnp.unique(
        convert_to_tensor(x),
        return_index=return_index,
        return_inverse=return_inverse,
        return_counts=return_counts,
        axis=axis,
        size=size,
        fill_value=fill_value,
    )
    if not (return_index or return_inverse or return_counts):
        return result
    return (result[0], *(as_index(r) for r in result[1:]))


def unravel_index(indices, shape):
    return tuple(
        as_index(i) for i in jnp.unravel_index(convert_to_tensor(indices), shape_arg(shape))
    )


def _int8_accumulator(operands):
    """int32 when every operand is int8 (products then accumulate in int32, as in Keras)."""
    return jnp.int32 if builtins.all(o.dtype == jnp.int8 for o in operands) else None


def matmul(x1, x2):
    x1, x2 = promote(x1, x2)
    return jnp.matmul(x1, x2, preferred_element_type=_int8_accumulator((x1, x2)))


def dot(x1, x2):
    return jnp.dot(*promote(x1, x2))


def tensordot(x1, x2, axes=2):
    return jnp.tensordot(*promote(x1, x2), axes=axes)


def einsum(subscripts, *operands, **kwargs):
    operands = promote(*operands)
    return jnp.einsum(
        subscripts, *operands, preferred_element_type=_int8_accumulator(operands), **kwargs
    )


def correlate(x1, x2, mode="valid"):
    return jnp.correlate(*promote_float(x1, x2), mode=mode)


def slogdet(x):
    sign, logdet = jnp.linalg.slogdet(to_float(x))
    return sign, logdet


def vectorize(pyfunc, *, excluded=None, signature=None):
    return jnp.vectorize(pyfunc, excluded=excluded or frozenset(), signature=signature)


def view(x, dtype=None):
    x = convert_to_tensor(x)
    return x if dtype is None else x.view(np_dtype(dtype))
