"""Private helpers shared by the torch backend's op modules: dtype widening, axes, shapes."""

import numpy as np
import torch

from tripod.backends import dtypes
from tripod.backends.common import dtype_rules
from tripod.backends.torch.core import (
    _COMPUTE,
    _NAMES,
    _TORCH_DTYPES,
    _cast_to,
    _device,
    _result_type,
    _to_torch_dtype,
    convert_to_tensor,
)

_INTS = frozenset(_TORCH_DTYPES[n] for n in dtypes.INTS + dtypes.UINTS)
_HALF = (torch.float16, torch.bfloat16)

#: torch dtype -> the dtype its sum, prod or trace gives
_SUM_DTYPES = {
    _TORCH_DTYPES[name]: _TORCH_DTYPES[dtype_rules.accumulation_dtype(name)]
    for name in dtypes.ALLOWED
}


def _wide(x):
    """Tensor `x` in a dtype torch computes with (unsigned 16/32/64-bit widened)."""
    wide = _COMPUTE.get(x.dtype) if isinstance(x, torch.Tensor) else None
    return x if wide is None else x.to(wide)


def _float(x):
    """`x` as a floating (or complex) tensor: bool and integers become floatx."""
    x = convert_to_tensor(x)
    dtype = x.dtype
    if dtype.is_floating_point or dtype.is_complex:
        return x
    return x.to(_result_type(_NAMES[dtype], float))


def _int_or_float(x):
    """`x` as a tensor torch can compute with: bool becomes uint8, wide unsigned types widen."""
    x = convert_to_tensor(x)
    return x.to(torch.uint8) if x.dtype == torch.bool else _wide(x)


def _axis(axis, ndim):
    """One `axis` as a non-negative int; a ValueError if it is out of range for rank `ndim`."""
    axis = int(axis)
    if not -ndim <= axis < (ndim or 1):
        raise ValueError(f"axis {axis} is out of bounds for a tensor of rank {ndim}.")
    return axis % ndim if ndim else 0


def _axes(axis, ndim):
    """`axis` (int or sequence) as a tuple of non-negative ints, checked against `ndim`."""
    items = (axis,) if isinstance(axis, int) else tuple(axis)
    out = tuple(_axis(a, ndim) for a in items)
    if len(set(out)) != len(out):
        raise ValueError(f"Repeated axis in {axis!r}.")
    return out


def _reduce(fn, x, axis, keepdims, **kwargs):
    """`fn(x, dim=..., keepdim=...)` with numpy's axis conventions (None: all, (): none)."""
    if axis is None:
        out = fn(x, **kwargs)
        return out.reshape((1,) * x.ndim) if keepdims else out
    dims = _axes(axis, x.ndim)
    if not dims:
        return x if "dtype" not in kwargs else x.to(kwargs["dtype"])
    return fn(x, dim=dims, keepdim=keepdims, **kwargs)


def _to_last(x, axis):
    """`x` with the reduced `axis` (None: all, int or tuple) flattened into one last dim.

    Returns the reshaped tensor and the shape to give the result for keepdims=True.
    """
    if axis is None:
        return x.reshape(-1), (1,) * x.ndim
    dims = _axes(axis, x.ndim)
    rest = [d for d in range(x.ndim) if d not in dims]
    moved = x.permute(*rest, *dims)
    kept = tuple(1 if d in dims else x.shape[d] for d in range(x.ndim))
    return moved.reshape(*(x.shape[d] for d in rest), -1), kept


def _int_list(values):
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


def _shape(shape):
    """A shape (int or sequence, possibly tensors) as a tuple of ints; a size torch.export
    traces symbolically stays symbolic (int() would fix it at the trace's value)."""
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(d if isinstance(d, torch.SymInt) else int(d) for d in shape)


def _index(x):
    """An index argument as a long tensor."""
    return convert_to_tensor(x).long()


def _matmul_safe(fn, *operands):
    """`fn`, a product, on operands of one dtype, computed where the device has kernels:
    integers in int64 on the CPU and float64 on accelerators, bools as counts of matches."""
    dtype = operands[0].dtype
    exact = dtype != torch.bool and dtype not in _INTS
    on_cpu = operands[0].device.type == "cpu"
    if exact or (on_cpu and dtype not in _COMPUTE and dtype != torch.bool):
        return fn(*operands)
    out = fn(*(o.to(torch.int64 if on_cpu else torch.float64) for o in operands))
    return out != 0 if dtype == torch.bool else _cast_to(out, dtype)


def _filled(shape, value, dtype):
    dtype = _to_torch_dtype(dtype)
    wide = _COMPUTE.get(dtype, dtype)
    return _cast_to(torch.full(_shape(shape), value, dtype=wide, device=_device()), dtype)


def _python_number(x):
    """A scalar argument (Python, NumPy or 0-d tensor) as a Python number."""
    if isinstance(x, torch.Tensor):
        return x.item()
    return x.item() if isinstance(x, np.generic) else x
