"""The numpy backend: numpy-style ops on whole arrays (shape, joins and splits, indexing, sorting,
products)."""

import builtins

import numpy as np

from tripod.backends import dtypes
from tripod.backends.common import errors
from tripod.backends.numpy import rules
from tripod.backends.numpy.core import convert_to_tensor

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


def isin(x1, x2, assume_unique=False, invert=False):
    work = rules.work(rules.result(x1, x2))
    return np.isin(
        rules.as_dtype(x1, work),
        rules.as_dtype(x2, work),
        assume_unique=assume_unique,
        invert=invert,
    )


# -- linear algebra ------------------------------------------------------------------------------
def _matmul_dtype(operands):
    """int8 products accumulate in int32 (as in Keras); other operands promote."""
    if builtins.all(rules.kind(x) == np.dtype("int8") for x in operands):
        return "int32"
    return rules.result(*operands)


def matmul(x1, x2):
    dtype = _matmul_dtype((x1, x2))
    work = rules.work(dtype)
    x1, x2 = rules.as_dtype(x1, work), rules.as_dtype(x2, work)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("matmul operands must have at least one dimension.")
    return rules.finish(np.matmul(x1, x2), dtype)


def dot(x1, x2):
    return rules.binary(np.dot, x1, x2)


def tensordot(x1, x2, axes=2):
    return rules.binary(lambda a, b: np.tensordot(a, b, axes=axes), x1, x2)


def einsum(subscripts, *operands, **kwargs):
    dtype = _matmul_dtype(operands)
    work = rules.work(dtype)
    return rules.finish(
        np.einsum(subscripts, *(rules.as_dtype(x, work) for x in operands), **kwargs), dtype
    )


def slogdet(x):
    dtype = rules.result(x, floating=True)
    sign, logdet = np.linalg.slogdet(rules.as_dtype(x, rules.work(dtype)))
    return rules.finish(sign, dtype), rules.finish(logdet, dtype)


def correlate(x1, x2, mode="valid"):
    dtype = rules.result(x1, x2, floating=True)
    work = rules.work(dtype)
    x1, x2 = rules.as_dtype(x1, work), rules.as_dtype(x2, work)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"correlate needs 1-D inputs, received shapes {x1.shape} and {x2.shape}.")
    return rules.finish(np.correlate(x1, x2, mode=mode), dtype)


# -- shape and layout ----------------------------------------------------------------------------
def reshape(x, newshape):
    return np.reshape(convert_to_tensor(x), rules.shape_tuple(newshape))


def expand_dims(x, axis):
    return np.expand_dims(convert_to_tensor(x), rules.axis_arg(axis))


def squeeze(x, axis=None):
    return np.squeeze(convert_to_tensor(x), axis=rules.axis_arg(axis))


def transpose(x, axes=None):
    return np.transpose(convert_to_tensor(x), axes=None if axes is None else tuple(axes))


def broadcast_to(x, shape):
    return np.array(np.broadcast_to(convert_to_tensor(x), rules.shape_tuple(shape)))


def flip(x, axis=None):
    return np.flip(convert_to_tensor(x), axis=rules.axis_arg(axis)).copy()


def roll(x, shift, axis=None):
    shift = shift if isinstance(shift, int) else tuple(np.asarray(shift).reshape(-1).tolist())
    return np.roll(convert_to_tensor(x), shift, axis=rules.axis_arg(axis))


def tile(x, repeats):
    return np.tile(convert_to_tensor(x), np.asarray(convert_to_tensor(repeats)).tolist())


def repeat(x, repeats, axis=None):
    return np.repeat(convert_to_tensor(x), np.asarray(convert_to_tensor(repeats)), axis=axis)


def _promote_all(xs):
    """The arrays of `xs`, promoted to their shared dtype."""
    dtype = rules.result(*xs)
    return [rules.as_dtype(x, dtype) for x in xs]


def concatenate(xs, axis=0):
    return np.concatenate(_promote_all(list(xs)), axis=axis)


def stack(x, axis=0):
    return np.stack(_promote_all(list(x)), axis=axis)


def append(x1, x2, axis=None):
    x1, x2 = _promote_all([x1, x2])
    return np.append(x1, x2, axis=axis)


def _sections(indices_or_sections):
    if isinstance(indices_or_sections, int):
        return indices_or_sections
    return [int(i) for i in np.asarray(indices_or_sections).reshape(-1)]


def split(x, indices_or_sections, axis=0):
    return list(np.split(convert_to_tensor(x), _sections(indices_or_sections), axis=axis))


def array_split(x, indices_or_sections, axis=0):
    return list(np.array_split(convert_to_tensor(x), _sections(indices_or_sections), axis=axis))


def diagonal(x, offset=0, axis1=0, axis2=1):
    return np.diagonal(convert_to_tensor(x), offset=offset, axis1=axis1, axis2=axis2).copy()


def diff(a, n=1, axis=-1):
    return np.diff(convert_to_tensor(a), n=n, axis=axis)


def view(x, dtype=None):
    x = convert_to_tensor(x)
    return x.copy() if dtype is None else x.view(dtypes.to_numpy(dtype))


def pad(x, pad_width, mode="constant", constant_values=None):
    x = convert_to_tensor(x)
    errors.check_pad_args(mode, constant_values)
    widths = np.asarray(convert_to_tensor(pad_width)).tolist()
    if mode in ("constant", "empty"):
        fill = 0 if constant_values is None else rules.as_dtype(constant_values, x.dtype)
        return np.pad(x, widths, mode="constant", constant_values=fill)
    return np.pad(x, widths, mode="wrap" if mode == "circular" else mode)


# -- indexing, sorting, searching ----------------------------------------------------------------
def _key_part(part):
    if isinstance(part, (builtins.slice, type(Ellipsis), type(None), int)):
        return part
    return convert_to_tensor(part)


def get_item(x, key):
    key = tuple(_key_part(k) for k in key) if isinstance(key, tuple) else _key_part(key)
    return np.array(convert_to_tensor(x)[key])


def take(x, indices, axis=None):
    return np.take(convert_to_tensor(x), convert_to_tensor(indices), axis=axis)


def take_along_axis(x, indices, axis=None):
    x, indices = convert_to_tensor(x), convert_to_tensor(indices)
    if axis is None:
        return np.take_along_axis(x.reshape(-1), indices.reshape(-1), axis=0)
    axis = errors.check_axis("take_along_axis", axis, x.ndim)
    if indices.ndim != x.ndim:
        raise ValueError(f"indices must have the rank of x ({x.ndim}), received {indices.ndim}.")
    x_shape, i_shape = list(x.shape), list(indices.shape)
    x_shape[axis] = i_shape[axis] = 1
    common = np.broadcast_shapes(tuple(x_shape), tuple(i_shape))
    x = np.broadcast_to(x, common[:axis] + (x.shape[axis],) + common[axis + 1 :])
    indices = np.broadcast_to(indices, common[:axis] + (indices.shape[axis],) + common[axis + 1 :])
    return np.take_along_axis(x, indices, axis=axis)


def where(condition, x1=None, x2=None):
    condition = convert_to_tensor(condition)
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError("where needs both x1 and x2, or neither.")
    dtype = rules.result(x1, x2)
    return np.where(condition, rules.as_dtype(x1, dtype), rules.as_dtype(x2, dtype))


def nonzero(x):
    return tuple(rules.int32(i) for i in np.nonzero(convert_to_tensor(x)))


def sort(x, axis=-1):
    x = convert_to_tensor(x)
    errors.check_scalar_axis("sort", axis, x.ndim)
    return np.sort(x, axis=axis, kind="stable")


def argsort(x, axis=-1):
    x = convert_to_tensor(x)
    errors.check_scalar_axis("argsort", axis, x.ndim, allowed=(-1, 0))
    if x.ndim == 0 and axis is not None:  # NumPy's shape (1,); the contract keeps x's shape
        return np.zeros((), np.int32)
    return rules.int32(np.argsort(x, axis=axis, kind="stable"))


def argpartition(x, kth, axis=-1):
    """A stable full argsort, which is a valid (and deterministic) argpartition."""
    x = convert_to_tensor(x)
    axis = errors.check_axis("argpartition", axis, x.ndim)
    if not -x.shape[axis] <= int(kth) < x.shape[axis]:
        raise ValueError(f"kth={kth} is out of bounds for an axis of size {x.shape[axis]}.")
    return rules.int32(np.argsort(x, axis=axis, kind="stable"))


def searchsorted(sorted_sequence, values, side="left"):
    sorted_sequence = convert_to_tensor(sorted_sequence)
    if sorted_sequence.ndim != 1:
        raise ValueError(f"sorted_sequence must be 1-D, received rank {sorted_sequence.ndim}.")
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', received {side!r}.")
    work = rules.work(rules.result(sorted_sequence, values))
    return rules.int32(
        np.searchsorted(
            rules.as_dtype(sorted_sequence, work), rules.as_dtype(values, work), side=side
        )
    )


def digitize(x, bins):
    work = rules.work(rules.result(x, bins))
    return rules.int32(np.digitize(rules.as_dtype(x, work), rules.as_dtype(bins, work)))


def unravel_index(indices, shape):
    indices = convert_to_tensor(indices)
    return tuple(
        rules.int32(i) for i in np.unravel_index(indices.astype(np.int64), rules.shape_tuple(shape))
    )


def _pad_to(values, size, fill):
    """`values` cut or padded (with `fill`) along axis 0 to length `size`."""
    if len(values) >= size:
        return values[:size]
    padding = np.full((size - len(values),) + values.shape[1:], fill, dtype=values.dtype)
    return np.concatenate([values, padding])


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
    x = convert_to_tensor(x)
    values, index, inverse, counts = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True, axis=axis
    )
    inverse = inverse.reshape(x.shape) if axis is None else inverse.reshape(-1)
    if size is not None:
        # As jax.numpy.unique: pad with `fill_value` (default: the smallest value) and its index.
        first_value, first_index = (values[0], index[0]) if len(values) else (0, 0)
        values = _pad_to(values, size, first_value if fill_value is None else fill_value)
        index, counts = _pad_to(index, size, first_index), _pad_to(counts, size, 0)
    extras = [
        rules.int32(v)
        for v, wanted in ((index, return_index), (inverse, return_inverse), (counts, return_counts))
        if wanted
    ]
    return (values, *extras) if extras else values


# -- vectorize -----------------------------------------------------------------------------------
def vectorize(pyfunc, *, excluded=None, signature=None):
    vectorized = np.vectorize(pyfunc, excluded=excluded or set(), signature=signature)

    def apply(*args, **kwargs):
        result = vectorized(*args, **kwargs)
        return (
            tuple(np.asarray(r) for r in result)
            if isinstance(result, tuple)
            else np.asarray(result)
        )

    return apply
