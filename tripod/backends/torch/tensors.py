"""Tensors, dtypes and devices for the torch backend: conversion, promotion and placement.

Every torch op module builds on these helpers; `convert_to_tensor` lives here because they all
need it, and `core` registers it as an op.
"""

import builtins
import threading

import ml_dtypes
import numpy as np
import torch

from tripod.backends import config, dtypes
from tripod.backends.common import variables

#: where tensors created from host data live when no `tripod.device` scope says otherwise
_DEFAULT_DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class _Placement(threading.local):
    """Each thread's device for new tensors: the default, or the innermost device scope's."""

    def __init__(self):
        self.device = _DEFAULT_DEVICE


placement = _Placement()


def current_device():
    """The device new tensors go to now."""
    return placement.device


#: tripod dtype name <-> torch dtype
TORCH_DTYPES = {name: getattr(torch, name) for name in dtypes.ALLOWED}
DTYPE_NAMES = {torch_dtype: name for name, torch_dtype in TORCH_DTYPES.items()}

#: unsigned types torch has little arithmetic for -> the type to compute them in
COMPUTE_DTYPES = {torch.uint16: torch.int32, torch.uint32: torch.int64, torch.uint64: torch.int64}

SCALARS = (bool, int, float, complex)
#: sizes torch.export traces symbolically -> the Python scalar type they stand for
_SYMBOLIC = {torch.SymInt: int, torch.SymFloat: float, torch.SymBool: bool}
BFLOAT16 = np.dtype(ml_dtypes.bfloat16)


def to_torch_dtype(dtype):
    """The torch dtype for a tripod dtype (name, type, dtype object; None means floatx)."""
    if isinstance(dtype, torch.dtype):
        return dtype
    found = TORCH_DTYPES.get(dtype) if isinstance(dtype, str) else None
    return found or TORCH_DTYPES[dtypes.standardize_dtype(dtype)]


def dtype_name(x):
    """The tripod dtype name of torch tensor `x`."""
    return DTYPE_NAMES[x.dtype]


_RESULT_TYPES = {}


def torch_result_type(*kinds):
    """The torch result dtype of mixing tripod dtype names and Python scalar types (cached)."""
    key = (config.floatx(), kinds)
    found = _RESULT_TYPES.get(key)
    if found is None:
        found = TORCH_DTYPES[dtypes.result_type(*kinds)]
        # Not filled while torch.compile traces: it guards on the entries it saw missing, and an
        # entry the trace added would compile the step again on its next call.
        if not torch.compiler.is_compiling():
            _RESULT_TYPES[key] = found
    return found


def cast_to(x, dtype):
    """Tensor `x` as torch `dtype`, skipping `.to`'s call overhead when it already is one."""
    return x if x.dtype == dtype else x.to(dtype)


def kind_of(x):
    """`x`'s dtype name if it is a tensor, else its weak Python scalar type."""
    return DTYPE_NAMES[x.dtype] if isinstance(x, torch.Tensor) else type(x)


def result_name(*xs):
    """The tripod dtype name that tensors and Python scalars `xs` promote to."""
    return dtypes.result_type(*(kind_of(x) for x in xs))


def tensor_or_scalar(x):
    """`x` as a tensor, or unchanged if it is a Python scalar (a weak operand)."""
    if isinstance(x, torch.Tensor) or type(x) in SCALARS:
        return x
    return convert_to_tensor(x)


def binary_operands(x1, x2, floating=False):
    """Both operands in their shared result dtype (at least a float when `floating`); a Python
    scalar second operand stays one.

    Returns (x1, x2, dtype). Torch computes a tensor-scalar op in the tensor's dtype, which is
    then the result dtype already.
    """
    x1, x2 = tensor_or_scalar(x1), tensor_or_scalar(x2)
    t1, t2 = isinstance(x1, torch.Tensor), isinstance(x2, torch.Tensor)
    if t1 and t2 and x1.dtype == x2.dtype and (not floating or x1.dtype.is_floating_point):
        return x1, x2, x1.dtype
    kinds = (kind_of(x1), kind_of(x2), float) if floating else (kind_of(x1), kind_of(x2))
    dtype = torch_result_type(*kinds)
    # Torch wants a tensor first; the second operand may stay a Python scalar.
    if t1:
        x1 = cast_to(x1, dtype)
    else:
        x1 = torch.tensor(x1, dtype=dtype, device=x2.device if t2 else current_device())
    if t2:
        x2 = cast_to(x2, dtype)
    return x1, x2, dtype


def binary_tensors(x1, x2, floating=False, arithmetic=False):
    """Both operands as tensors of their result dtype (a float when `floating`), and that dtype.
    With `arithmetic`, a Python int out of that dtype's range is NumPy's OverflowError rather
    than a wrapped value."""
    x1, x2, dtype = binary_operands(x1, x2, floating)
    if arithmetic:
        dtypes.check_python_ints(dtype, x1, x2)
    if not isinstance(x1, torch.Tensor):
        x1 = torch.tensor(x1, dtype=dtype, device=x2.device)
    if not isinstance(x2, torch.Tensor):
        x2 = torch.tensor(x2, dtype=dtype, device=x1.device)
    return x1, x2, dtype


def promote(*xs):
    """Every operand as a tensor of their shared result dtype (Python scalars are weak)."""
    xs = [tensor_or_scalar(x) for x in xs]
    dtype = torch_result_type(*(kind_of(x) for x in xs))
    device = next((x.device for x in xs if isinstance(x, torch.Tensor)), current_device())
    return [
        cast_to(x, dtype)
        if isinstance(x, torch.Tensor)
        else torch.tensor(x, dtype=dtype, device=device)
        for x in xs
    ]


def widened(x):
    """`x` in a type torch computes with (unsigned 16/32/64-bit widened), and its own dtype."""
    wide = COMPUTE_DTYPES.get(x.dtype)
    return (x, x.dtype) if wide is None else (x.to(wide), x.dtype)


def from_numpy(array):
    """A NumPy array as a tensor on the default device (bfloat16 through its bits)."""
    if array.dtype == BFLOAT16:
        return from_numpy(array.view(np.uint16)).view(torch.bfloat16)
    if not array.flags.writeable or builtins.any(s < 0 for s in array.strides):
        array = np.array(array)
    tensor = torch.from_numpy(array)
    device = placement.device
    return tensor if device.type == "cpu" else tensor.to(device)


def _holds_tensor(x):
    """Whether the (nested) list or tuple `x` holds a torch tensor or a Variable."""
    return builtins.any(
        isinstance(v, (torch.Tensor, variables.Variable))
        or (isinstance(v, (list, tuple)) and _holds_tensor(v))
        for v in x
    )


def _stack_sequence(x):
    """A (nested) list mixing tensors and other values as one stacked tensor."""
    parts = [convert_to_tensor(v) for v in x]
    return torch.stack(promote(*parts)) if parts else torch.zeros((0,), device=current_device())


def unwrap_variables(x):
    """`x` with every tripod Variable inside lists, tuples and dicts replaced by its value."""
    if isinstance(x, variables.Variable):
        return x.value
    if isinstance(x, (list, tuple)):
        return type(x)(unwrap_variables(v) for v in x)
    if isinstance(x, dict):
        return {k: unwrap_variables(v) for k, v in x.items()}
    return x


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    if sparse or ragged:
        raise ValueError("The torch backend has no sparse or ragged tensors.")
    if isinstance(x, variables.Variable):
        x = x.value
    if isinstance(x, torch.Tensor):
        return x if dtype is None else cast_to(x, to_torch_dtype(dtype))
    symbolic = _SYMBOLIC.get(type(x))
    if symbolic is not None:
        # a size torch.export traces symbolically (e.g. the batch): a 0-d tensor of its value
        target = torch_result_type(symbolic) if dtype is None else to_torch_dtype(dtype)
        return torch.scalar_tensor(x, dtype=target, device=current_device())
    if dtype is not None:
        target = to_torch_dtype(dtype)
        if type(x) in SCALARS:
            return torch.tensor(x, dtype=target, device=current_device())
        if isinstance(x, np.ndarray) or (isinstance(x, (list, tuple)) and _holds_tensor(x)):
            return cast_to(convert_to_tensor(x), target)
        return from_numpy(np.asarray(x, dtype=dtypes.to_numpy(DTYPE_NAMES[target])))
    kind = type(x)
    if kind in SCALARS:
        return torch.tensor(x, dtype=torch_result_type(kind), device=current_device())
    if kind is np.ndarray:
        return from_numpy(x)
    if isinstance(x, (list, tuple)) and _holds_tensor(x):
        return _stack_sequence(x)
    array = np.asarray(x)
    if not isinstance(x, np.generic):
        if array.dtype == np.float64:
            array = array.astype(dtypes.to_numpy(float))
        elif array.dtype == np.int64:
            array = array.astype(np.int32)
    return from_numpy(array)
