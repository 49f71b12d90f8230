"""The torch backend: numpy-style ops on whole arrays (shape, joins and splits, indexing, sorting,
products).

Dtypes follow `tripod.backends.dtypes` (Python scalars are weak). Unsigned 16/32/64-bit tensors,
which torch stores but barely computes with, are computed in a wider signed type and cast back.
"""

import builtins

import numpy as np
import torch
import torch.nn.functional as F

from tripod.backends.common import errors
from tripod.backends.common import vectorize as vectorize_rules
from tripod.backends.torch import core, counting, indexing, padding
from tripod.backends.torch.elementwise import multiply
from tripod.backends.torch.helpers import (
    HALF_DTYPES,
    as_computable,
    as_float,
    as_index,
    as_shape,
    canonical_axes,
    canonical_axis,
    int_list,
    matmul_safe,
    widen,
)
from tripod.backends.torch.tensors import (
    binary_tensors,
    cast_to,
    convert_to_tensor,
    promote,
    to_torch_dtype,
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


def where(condition, x1=None, x2=None):
    condition = convert_to_tensor(condition)
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError("where: pass both x1 and x2, or neither.")
    x1, x2, dtype = binary_tensors(x1, x2)
    out = torch.where(cast_to(condition, torch.bool), widen(x1), widen(x2))
    return cast_to(out, dtype)


# -- shape and indexing -----------------------------------------------------------------------
def reshape(x, newshape):
    x = convert_to_tensor(x)
    if type(newshape) is tuple and all(type(d) is int for d in newshape):
        return x.reshape(newshape)  # the usual call, from a layer: nothing to convert
    return x.reshape(as_shape(newshape))


def transpose(x, axes=None):
    x = convert_to_tensor(x)
    if axes is None:
        return x.permute(tuple(reversed(range(x.ndim))))
    axes = int_list(axes)
    if sorted(a % builtins.max(x.ndim, 1) for a in axes) != list(range(x.ndim)):
        raise ValueError(f"axes {axes} are not a permutation of the {x.ndim} dims.")
    return x.permute(*axes)


def expand_dims(x, axis):
    x = convert_to_tensor(x)
    new_ndim = x.ndim + (1 if isinstance(axis, int) else len(axis))
    positions = canonical_axes(axis, new_ndim)
    shape = iter(x.shape)
    return x.reshape([1 if d in positions else next(shape) for d in range(new_ndim)])


def squeeze(x, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        return x.reshape([d for d in x.shape if d != 1])
    dims = canonical_axes(axis, x.ndim)
    if builtins.any(x.shape[d] != 1 for d in dims):
        raise ValueError(f"Cannot squeeze axis {axis} of a tensor of shape {tuple(x.shape)}.")
    return x.reshape([n for d, n in enumerate(x.shape) if d not in dims])


def broadcast_to(x, shape):
    return torch.broadcast_to(convert_to_tensor(x), as_shape(shape))


def flip(x, axis=None):
    x = convert_to_tensor(x)
    dims = tuple(range(x.ndim)) if axis is None else canonical_axes(axis, x.ndim)
    return cast_to(torch.flip(widen(x), dims), x.dtype)


def roll(x, shift, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        return torch.roll(x.reshape(-1), int_list(shift)).reshape(x.shape)
    return torch.roll(x, int_list(shift), int_list(axis))


def tile(x, repeats):
    return torch.tile(convert_to_tensor(x), tuple(int_list(repeats)))


def repeat(x, repeats, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        x, axis = x.reshape(-1), 0
    if not isinstance(repeats, int):
        repeats = as_index(repeats)
    return torch.repeat_interleave(x, repeats, dim=int(axis))


def concatenate(xs, axis=0):
    xs = promote(*xs)
    if axis is None:
        return torch.cat([x.reshape(-1) for x in xs])
    return torch.cat(xs, dim=int(axis))


def append(x1, x2, axis=None):
    return concatenate([x1, x2], axis=axis)


def stack(x, axis=0):
    return torch.stack(promote(*x), dim=int(axis))


def _split_points(n, indices_or_sections, even):
    """The split positions along an axis of length `n` (numpy's split/array_split rules)."""
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("The number of sections must be positive.")
        if even and n % sections:
            raise ValueError(f"An axis of length {n} does not split into {sections} equal parts.")
        size, extra = n // sections, n % sections  # (divmod does not trace in torch's scan)
        return [i * size + builtins.min(i, extra) for i in range(1, sections)]
    return int_list(indices_or_sections)


def split(x, indices_or_sections, axis=0):
    x = convert_to_tensor(x)
    axis = canonical_axis(axis, x.ndim)
    points = _split_points(x.shape[axis], indices_or_sections, even=True)
    return list(torch.tensor_split(x, points, dim=axis))


def array_split(x, indices_or_sections, axis=0):
    x = convert_to_tensor(x)
    axis = canonical_axis(axis, x.ndim)
    points = _split_points(x.shape[axis], indices_or_sections, even=False)
    return list(torch.tensor_split(x, points, dim=axis))


def get_item(x, key):
    x, key = indexing.torch_key(convert_to_tensor(x), key)
    return cast_to(widen(x)[key], x.dtype)


def _wrap_index(indices, n):
    """Negative indices counted from the end."""
    return torch.where(indices < 0, indices + n, indices)


def _embedding_lookup(x, indices):
    """Rows of the float matrix `x` by CPU `indices` as one embedding kernel, or None where some
    index is negative (counted from the end by the general path) or out of range."""
    if x.ndim != 2 or not x.is_floating_point() or x.device.type != "cpu":
        return None
    if indices.dtype not in (torch.int32, torch.int64) or torch.compiler.is_compiling():
        return None
    try:
        return F.embedding(indices, x)
    except IndexError:
        return None


def take(x, indices, axis=None):
    x, indices = convert_to_tensor(x), convert_to_tensor(indices)
    rows = _embedding_lookup(x, indices) if axis == 0 else None
    if rows is not None:
        return rows
    indices = indices.long()
    if axis is None:
        x, axis = x.reshape(-1), 0
    axis = canonical_axis(axis, x.ndim)
    flat = _wrap_index(indices.reshape(-1), x.shape[axis])
    out = torch.index_select(x, axis, flat)
    return out.reshape(x.shape[:axis] + indices.shape + x.shape[axis + 1 :])


def take_along_axis(x, indices, axis=None):
    x = convert_to_tensor(x)
    indices = as_index(indices)
    if axis is None:
        x, indices, axis = x.reshape(-1), indices.reshape(-1), 0
    axis = canonical_axis(axis, x.ndim)
    if indices.ndim != x.ndim:
        raise ValueError(f"indices must have the rank of x ({x.ndim}), got {indices.ndim}.")
    indices = _wrap_index(indices, x.shape[axis])
    return cast_to(torch.take_along_dim(widen(x), indices, dim=axis), x.dtype)


def diagonal(x, offset=0, axis1=0, axis2=1):
    return torch.diagonal(convert_to_tensor(x), offset=offset, dim1=axis1, dim2=axis2)


def nonzero(x):
    x = convert_to_tensor(x)
    mask = x if x.dtype == torch.bool else x != 0
    return tuple(i.to(torch.int32) for i in torch.nonzero(mask, as_tuple=True))


def unravel_index(indices, shape):
    indices = as_index(indices)
    shape = as_shape(shape)
    out = []
    for dim in reversed(shape):
        out.append(torch.remainder(indices, dim).to(torch.int32))
        indices = torch.div(indices, dim, rounding_mode="floor")
    return tuple(reversed(out))


def view(x, dtype=None):
    x = convert_to_tensor(x)
    return x if dtype is None else x.view(to_torch_dtype(dtype))


# -- sorting and searching --------------------------------------------------------------------
def _flatten_if_none(x, axis):
    return (x.reshape(-1), 0) if axis is None else (x, int(axis))


def sort(x, axis=-1):
    x = convert_to_tensor(x)
    errors.check_scalar_axis("sort", axis, x.ndim)
    x, axis = _flatten_if_none(x, axis)
    return cast_to(torch.sort(as_computable(x), dim=axis, stable=True).values, x.dtype)


def argsort(x, axis=-1):
    x = as_computable(x)
    errors.check_scalar_axis("argsort", axis, x.ndim, allowed=(-1, 0))
    x, axis = _flatten_if_none(x, axis)
    return torch.argsort(x, dim=axis, stable=True).to(torch.int32)


def argpartition(x, kth, axis=-1):
    # A stable full sort is one valid partition for every kth.
    x = as_computable(x)
    n = x.shape[axis]
    if not -n <= int(kth) < n:
        raise ValueError(f"kth {kth} is out of bounds for an axis of length {n}.")
    return argsort(x, axis=axis)


def searchsorted(sorted_sequence, values, side="left"):
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', received {side!r}.")
    sequence, values = promote(sorted_sequence, values)
    if sequence.ndim != 1:
        raise ValueError(f"searchsorted needs a 1-D sorted_sequence, got rank {sequence.ndim}.")
    sequence, values = as_computable(sequence), as_computable(values)
    return torch.searchsorted(sequence, values, side=side).to(torch.int32)


def digitize(x, bins):
    x, bins = promote(x, bins)
    x, bins = as_computable(x), as_computable(bins)
    return torch.bucketize(x, bins, right=True).to(torch.int32)


def isin(x1, x2, assume_unique=False, invert=False):
    x1, x2 = (as_computable(v) for v in promote(x1, x2))
    return torch.isin(x1, x2, assume_unique=assume_unique, invert=invert)


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
    wanted = (return_index, return_inverse, return_counts)
    return counting.unique(convert_to_tensor(x), wanted, axis, size, fill_value)


# -- linear algebra-like and misc -------------------------------------------------------------
def _product(fn, *operands):
    """`fn`, a product, over operands of one dtype. int8 products accumulate in int32 (as in
    Keras), computed in float64: exact for them, and BLAS runs it (integer products are loops)."""
    dtype = operands[0].dtype
    if dtype == torch.int8:
        return fn(*(o.double() for o in operands)).to(torch.int32)
    return cast_to(matmul_safe(fn, *operands), dtype)


def matmul(x1, x2):
    if isinstance(x1, torch.Tensor) and isinstance(x2, torch.Tensor):
        dtype = x1.dtype
        if dtype == x2.dtype and dtype.is_floating_point and x1.ndim and x2.ndim:
            return torch.matmul(x1, x2)  # the common case (a Dense layer): nothing to promote
    x1, x2 = promote(x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("matmul: the operands must not be scalars.")
    return _product(torch.matmul, x1, x2)


def dot(x1, x2):
    x1, x2 = promote(x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        return multiply(x1, x2)
    other = 0 if x2.ndim == 1 else x2.ndim - 2
    return matmul_safe(lambda a, b: torch.tensordot(a, b, ([a.ndim - 1], [other])), x1, x2)


def tensordot(x1, x2, axes=2):
    x1, x2 = promote(x1, x2)
    if not isinstance(axes, int):
        axes = [int_list(a) for a in axes]
    return matmul_safe(lambda a, b: torch.tensordot(a, b, dims=axes), x1, x2)


def einsum(subscripts, *operands, **kwargs):
    return _product(lambda *ops: torch.einsum(subscripts, *ops), *promote(*operands))


def slogdet(x):
    x = as_float(x)
    compute = torch.float32 if x.dtype in HALF_DTYPES else x.dtype
    sign_, logabsdet = torch.linalg.slogdet(cast_to(x, compute))
    return cast_to(sign_, x.dtype), cast_to(logabsdet, x.dtype)


def diff(a, n=1, axis=-1):
    a = convert_to_tensor(a)
    return cast_to(torch.diff(widen(a), n=int(n), dim=int(axis)), a.dtype)


def correlate(x1, x2, mode="valid"):
    x1, x2 = as_float(x1), as_float(x2)
    out_dtype = torch.promote_types(x1.dtype, x2.dtype)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("correlate needs two 1-D inputs.")
    compute = torch.float64 if out_dtype == torch.float64 else torch.float32
    a, v = x1.to(compute), x2.to(compute)
    swap = v.shape[0] > a.shape[0]
    if swap:
        a, v = v, a
    n, m = a.shape[0], v.shape[0]
    pads = {"valid": (0, 0), "same": (m // 2, m - 1 - m // 2), "full": (m - 1, m - 1)}
    if mode not in pads:
        raise ValueError(f"mode must be 'valid', 'same' or 'full', received {mode!r}.")
    left, right = pads[mode]
    padded = F.pad(a.reshape(1, 1, n), (left, right))
    out = F.conv1d(padded, v.reshape(1, 1, m)).reshape(-1)
    return cast_to((out.flip(0) if swap else out), out_dtype)


def pad(x, pad_width, mode="constant", constant_values=None):
    return padding.numpy_pad(convert_to_tensor(x), pad_width, mode, constant_values)


def vectorize(pyfunc, *, excluded=None, signature=None):
    excluded = set(excluded or ())

    def vectorized(*args, **kwargs):
        positions = [i for i in range(len(args)) if i not in excluded]
        tensors = [convert_to_tensor(args[i]) for i in positions]
        cores = vectorize_rules.core_dims(signature) if signature else [0] * len(tensors)
        loop_shapes = [t.shape[: t.ndim - c] for t, c in zip(tensors, cores)]
        loop = torch.broadcast_shapes(*loop_shapes)
        flat = [
            t.expand(*loop, *t.shape[t.ndim - c :]).reshape(-1, *t.shape[t.ndim - c :])
            for t, c in zip(tensors, cores)
        ]

        def call(*items):
            full_args = list(args)
            for i, item in zip(positions, items):
                full_args[i] = item
            return pyfunc(*full_args, **kwargs)

        out = core.vectorized_map(lambda items: call(*items), tuple(flat))
        return core.tree.map_structure(lambda o: o.reshape(*loop, *o.shape[1:]), out)

    return vectorized
