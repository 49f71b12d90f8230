"""Helpers shared by the torch backend's op modules: dtype widening, axes, shapes."""

import numpy as np
import torch

from tripod.backends import config, dtypes
from tripod.backends.common import dtype_rules
from tripod.backends.torch.tensors import (
    COMPUTE_DTYPES,
    DTYPE_NAMES,
    TORCH_DTYPES,
    cast_to,
    convert_to_tensor,
    current_device,
    to_torch_dtype,
    torch_result_type,
)

INT_DTYPES = frozenset(TORCH_DTYPES[n] for n in dtypes.INTS + dtypes.UINTS)
HALF_DTYPES = (torch.float16, torch.bfloat16)

#: torch dtype -> the dtype its sum, prod or trace gives
SUM_DTYPES = {
    TORCH_DTYPES[name]: TORCH_DTYPES[dtype_rules.accumulation_dtype(name)]
    for name in dtypes.ALLOWED
}


def widen(x):
    """Tensor `x` in a dtype torch computes with (unsigned 16/32/64-bit widened)."""
    wide = COMPUTE_DTYPES.get(x.dtype) if isinstance(x, torch.Tensor) else None
    return x if wide is None else x.to(wide)


def as_float(x):
    """`x` as a floating (or complex) tensor: bool and integers become floatx."""
    x = convert_to_tensor(x)
    dtype = x.dtype
    if dtype.is_floating_point or dtype.is_complex:
        return x
    return x.to(torch_result_type(DTYPE_NAMES[dtype], float))


def as_computable(x):
    """`x` as a tensor torch can compute with: bool becomes uint8, wide unsigned types widen."""
    x = convert_to_tensor(x)
    return x.to(torch.uint8) if x.dtype == torch.bool else widen(x)


def canonical_axis(axis, ndim):
    """One `axis` as a non-negative int; a ValueError if it is out of range for rank `ndim`."""
    axis = int(axis)
    if not -ndim <= axis < (ndim or 1):
        raise ValueError(f"axis {axis} is out of bounds for a tensor of rank {ndim}.")
    return axis % ndim if ndim else 0


def canonical_axes(axis, ndim):
    """`axis` (int or sequence) as a tuple of non-negative ints, checked against `ndim`."""
    items = (axis,) if isinstance(axis, int) else tuple(axis)
    out = tuple(canonical_axis(a, ndim) for a in items)
    if len(set(out)) != len(out):
        raise ValueError(f"Repeated axis in {axis!r}.")
    return out


def reduce_over(fn, x, axis, keepdims, **kwargs):
    """`fn(x, dim=..., keepdim=...)` with numpy's axis conventions (None: all, (): none)."""
    if axis is None:
        out = fn(x, **kwargs)
        return out.reshape((1,) * x.ndim) if keepdims else out
    dims = canonical_axes(axis, x.ndim)
    if not dims:
        return x if "dtype" not in kwargs else x.to(kwargs["dtype"])
    return fn(x, dim=dims, keepdim=keepdims, **kwargs)


def axes_to_last(x, axis):
    """`x` with the reduced `axis` (None: all, int or tuple) flattened into one last dim.

    Returns the reshaped tensor and the shape to give the result for keepdims=True.
    """
    if axis is None:
        return x.reshape(-1), (1,) * x.ndim
    dims = canonical_axes(axis, x.ndim)
    rest = [d for d in range(x.ndim) if d not in dims]
    moved = x.permute(*rest, *dims)
    kept = tuple(1 if d in dims else x.shape[d] for d in range(x.ndim))
    return moved.reshape(*(x.shape[d] for d in rest), -1), kept


def int_list(values):
    """A Python int, a sequence, a NumPy array or a tensor of ints as a list of ints."""
    if isinstance(values, torch.Tensor):
        return values.reshape(-1).tolist()
    if isinstance(values, (int, np.integer)):
        return [int(values)]
    if isinstance(values, (list, tuple)) and all(isinstance(v, (int, np.integer)) for v in values):
        # Plain Python: torch.compile traces NumPy calls as tensor ops, and int() of one of
        # those is a data-dependent graph break.
        return [int(v) for v in values]
    return [int(v) for v in np.asarray(values).reshape(-1)]


def as_shape(shape):
    """A shape (int or sequence, possibly tensors) as a tuple of ints; a size torch.export
    traces symbolically stays symbolic (int() would fix it at the trace's value)."""
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(d if isinstance(d, torch.SymInt) else int(d) for d in shape)


def as_index(x):
    """An index argument as a long tensor."""
    return convert_to_tensor(x).long()


def matmul_safe(fn, *operands):
    """`fn`, a product, on operands of one dtype, computed where the device has kernels:
    integers in int64 on the CPU and float64 on accelerators, bools as counts of matches."""
    dtype = operands[0].dtype
    exact = dtype != torch.bool and dtype not in INT_DTYPES
    on_cpu = operands[0].device.type == "cpu"
    if exact or (on_cpu and dtype not in COMPUTE_DTYPES and dtype != torch.bool):
        return fn(*operands)
    out = fn(*(o.to(torch.int64 if on_cpu else torch.float64) for o in operands))
    return out != 0 if dtype == torch.bool else cast_to(out, dtype)


def filled(shape, value, dtype):
    dtype = to_torch_dtype(dtype)
    wide = COMPUTE_DTYPES.get(dtype, dtype)
    return cast_to(torch.full(as_shape(shape), value, dtype=wide, device=current_device()), dtype)


def python_number(x):
    """A scalar argument (Python, NumPy or 0-d tensor) as a Python number."""
    if isinstance(x, torch.Tensor):
        return x.item()
    return x.item() if isinstance(x, np.generic) else x


def as_floatx(x):
    """`x` as a tensor; integers and bools become floatx, the dtype float functions return."""
    x = convert_to_tensor(x)
    if x.is_floating_point() or x.is_complex():
        return x
    return x.to(to_torch_dtype(config.floatx()))


def stats_dtype(dtype):
    """The dtype to accumulate statistics of `dtype` values in."""
    return torch.float32 if dtype in HALF_DTYPES else dtype
