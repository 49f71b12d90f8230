"""The torch backend: numpy-style array ops.

Dtypes follow `tripod.backends.dtypes` (Python scalars are weak). Unsigned 16/32/64-bit tensors,
which torch stores but barely computes with, are computed in a wider signed type and cast back.
"""

import builtins
import re

import numpy as np
import torch
import torch.nn.functional as F

from tripod.backends.common import errors
from tripod.backends.torch import core, padding
from tripod.backends.torch.core import (
    _COMPUTE,
    _DEVICE,
    _NAMES,
    _SCALARS,
    _dtype_name,
    _operands,
    _promote,
    _result_type,
    _tensor_or_scalar,
    _to_torch_dtype,
    convert_to_tensor,
)
from tripod.backends.torch.helpers import (
    _HALF,
    _INTS,
    _axes,
    _filled,
    _float,
    _index,
    _int_list,
    _int_or_float,
    _matmul_safe,
    _python_number,
    _reduce,
    _shape,
    _to_last,
    _wide,
)
_SUM_DTYPES = {
    torch.bool: torch.int32, torch.int8: torch.int32, torch.int16: torch.int32,
    torch.uint8: torch.uint32, torch.uint16: torch.uint32,
}  # fmt: skip


# -- elementwise: unary -----------------------------------------------------------------------
def _float_unary(torch_fn):
    """A unary op computing in float: bool and integer inputs become floatx."""

    def op(x):
        return torch_fn(_float(x))

    return op


arccos = _float_unary(torch.arccos)
arccosh = _float_unary(torch.arccosh)
arcsin = _float_unary(torch.arcsin)
arcsinh = _float_unary(torch.arcsinh)
arctan = _float_unary(torch.arctan)
arctanh = _float_unary(torch.arctanh)
cos = _float_unary(torch.cos)
cosh = _float_unary(torch.cosh)
exp = _float_unary(torch.exp)
exp2 = _float_unary(torch.exp2)
expm1 = _float_unary(torch.expm1)
log = _float_unary(torch.log)
log10 = _float_unary(torch.log10)
log1p = _float_unary(torch.log1p)
log2 = _float_unary(torch.log2)
sin = _float_unary(torch.sin)
sinh = _float_unary(torch.sinh)
sqrt = _float_unary(torch.sqrt)
tan = _float_unary(torch.tan)
tanh = _float_unary(torch.tanh)
i0 = _float_unary(torch.special.i0)
ceil = _float_unary(torch.ceil)
floor = _float_unary(torch.floor)
reciprocal = _float_unary(torch.reciprocal)


def _plain_unary(torch_fn):
    """The unary op `x -> torch_fn(x)` on `x` as a tensor."""

    def op(x):
        return torch_fn(convert_to_tensor(x))

    return op


def _same_dtype_unary(torch_fn, for_bool=None):
    """A unary op keeping the input dtype; `for_bool` says what to do with bool (None: the op)."""

    def op(x):
        x = convert_to_tensor(x)
        if x.dtype == torch.bool and for_bool is not None:
            return for_bool(x)
        wide = _COMPUTE.get(x.dtype)
        return torch_fn(x) if wide is None else torch_fn(x.to(wide)).to(x.dtype)

    return op


def _not_for_bool(name):
    def refuse(x):
        raise TypeError(f"{name} is not defined for bool tensors.")

    return refuse


def _identity(x):
    return x


abs = _same_dtype_unary(torch.abs, for_bool=_identity)
negative = _same_dtype_unary(torch.neg, for_bool=_not_for_bool("negative"))
sign = _same_dtype_unary(torch.sign, for_bool=_not_for_bool("sign"))
trunc = _same_dtype_unary(torch.trunc, for_bool=_identity)
_invert = _same_dtype_unary(torch.bitwise_not)


def bitwise_invert(x):
    x = convert_to_tensor(x)
    if x.is_floating_point() or x.is_complex():
        raise TypeError(f"bitwise_invert needs an integer or bool tensor, got {_dtype_name(x)}.")
    return _invert(x)


def cbrt(x):
    x = _float(x)
    return torch.sign(x) * torch.abs(x).pow(1.0 / 3.0)


def square(x):
    x = convert_to_tensor(x)
    wide = _wide(x)
    return (wide * wide).to(x.dtype)


def round(x, decimals=0):
    x = convert_to_tensor(x)
    if x.is_floating_point():
        return torch.round(x, decimals=decimals)
    if decimals >= 0 or x.dtype == torch.bool:
        return x
    scale = 10.0 ** (-decimals)
    return (torch.round(x.to(torch.float64) / scale) * scale).to(x.dtype)


def angle(x):
    return torch.angle(_float(x))


def real(x):
    x = convert_to_tensor(x)
    return torch.real(x) if x.is_complex() else x


def imag(x):
    x = convert_to_tensor(x)
    return torch.imag(x) if x.is_complex() else torch.zeros_like(x)


def signbit(x):
    x = convert_to_tensor(x)
    return torch.signbit(x) if x.dtype != torch.bool else torch.zeros_like(x)


isfinite = _plain_unary(torch.isfinite)
isinf = _plain_unary(torch.isinf)
isnan = _plain_unary(torch.isnan)
logical_not = _plain_unary(torch.logical_not)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    x = convert_to_tensor(x)
    if not (x.is_floating_point() or x.is_complex()):
        return x
    return torch.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)


def copy(x):
    return convert_to_tensor(x).clone()


# -- elementwise: binary ----------------------------------------------------------------------
def _binary(apply, torch_fn):
    """The binary op `(x1, x2) -> apply(torch_fn, x1, x2)`."""

    def op(x1, x2):
        return apply(torch_fn, x1, x2)

    return op


def _arith(fn, x1, x2):
    """`fn` on both operands in their result dtype (wide unsigned types computed wider)."""
    x1, x2, dtype = _operands(x1, x2)
    wide = _COMPUTE.get(dtype)
    if wide is None:
        return fn(x1, x2)
    return fn(_wide(x1), _wide(x2)).to(dtype)


def _tensors(x1, x2):
    """Both operands as tensors of their result dtype, and that dtype."""
    x1, x2, dtype = _operands(x1, x2)
    if not isinstance(x1, torch.Tensor):
        x1 = torch.tensor(x1, dtype=dtype, device=x2.device)
    if not isinstance(x2, torch.Tensor):
        x2 = torch.tensor(x2, dtype=dtype, device=x1.device)
    return x1, x2, dtype


def _tensor_arith(fn, x1, x2):
    """Like `_arith`, for torch functions that take no Python scalars."""
    x1, x2, dtype = _tensors(x1, x2)
    wide = _COMPUTE.get(dtype)
    return fn(x1, x2) if wide is None else fn(x1.to(wide), x2.to(wide)).to(dtype)


def _float_binary(fn, x1, x2):
    """`fn` on both operands in their result dtype joined with float."""
    x1, x2 = _tensor_or_scalar(x1), _tensor_or_scalar(x2)
    dtype = _result_type(core._kind(x1), core._kind(x2), float)
    x1, x2 = (convert_to_tensor(x, dtype) for x in (x1, x2))
    return fn(x1, x2)


add = _binary(_arith, torch.add)
subtract = _binary(_arith, torch.subtract)
multiply = _binary(_arith, torch.multiply)
divide = _binary(_float_binary, torch.true_divide)


def _int_arith(fn, x1, x2):
    """`_arith` for ops torch has no bool kernel for: bools are computed as int8."""
    x1, x2, dtype = _operands(x1, x2)
    if dtype != torch.bool:
        return _arith(fn, x1, x2)
    x1, x2 = (x.to(torch.int8) if isinstance(x, torch.Tensor) else x for x in (x1, x2))
    return fn(x1, x2).to(torch.bool)


floor_divide = _binary(_int_arith, torch.floor_divide)
mod = _binary(_int_arith, torch.remainder)
fmod = _binary(_int_arith, torch.fmod)


def power(x1, x2):
    x1, x2, dtype = _operands(x1, x2)
    if dtype == torch.bool:
        return torch.logical_or(x1, torch.logical_not(torch.as_tensor(x2)))
    return _arith(torch.pow, x1, x2)


maximum = _binary(_tensor_arith, torch.maximum)
minimum = _binary(_tensor_arith, torch.minimum)
fmax = _binary(_tensor_arith, torch.fmax)
fmin = _binary(_tensor_arith, torch.fmin)
arctan2 = _binary(_float_binary, torch.arctan2)
hypot = _binary(_float_binary, torch.hypot)
logaddexp = _binary(_float_binary, torch.logaddexp)
nextafter = _binary(_float_binary, torch.nextafter)


def ldexp(x1, x2):
    x2 = convert_to_tensor(x2)
    if x2.is_floating_point() or x2.is_complex():
        raise TypeError("ldexp: the exponents x2 must be integers.")
    x1 = _float(x1)
    compute = torch.float32 if x1.dtype in _HALF else x1.dtype
    return torch.ldexp(x1.to(compute), x2.to(torch.int32)).to(x1.dtype)


gcd = _binary(_tensor_arith, torch.gcd)
lcm = _binary(_tensor_arith, torch.lcm)


def _compare(fn, x1, x2):
    """A comparison in the operands' result dtype (wide unsigned types compared wider)."""
    x1, x2, _ = _operands(x1, x2)
    return fn(_wide(x1), _wide(x2))


equal = _binary(_compare, torch.eq)
not_equal = _binary(_compare, torch.ne)
greater = _binary(_compare, torch.gt)
greater_equal = _binary(_compare, torch.ge)
less = _binary(_compare, torch.lt)
less_equal = _binary(_compare, torch.le)


def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    x1, x2, _ = _tensors(x1, x2)
    return torch.isclose(_wide(x1), _wide(x2), rtol=rtol, atol=atol, equal_nan=equal_nan)


def _logical(fn, x1, x2):
    return fn(convert_to_tensor(x1), convert_to_tensor(x2))


logical_and = _binary(_logical, torch.logical_and)
logical_or = _binary(_logical, torch.logical_or)
logical_xor = _binary(_logical, torch.logical_xor)


def _bitwise(fn, x, y):
    x, y, dtype = _operands(x, y)
    if dtype.is_floating_point or dtype.is_complex:
        raise TypeError(f"Bitwise ops need integer or bool operands, got {_NAMES[dtype]}.")
    return _arith(fn, x, y)


def bitwise_and(x, y):
    return _bitwise(torch.bitwise_and, x, y)


def bitwise_or(x, y):
    return _bitwise(torch.bitwise_or, x, y)


def bitwise_xor(x, y):
    return _bitwise(torch.bitwise_xor, x, y)


def bitwise_left_shift(x, y):
    return _bitwise(torch.bitwise_left_shift, x, y)


def bitwise_right_shift(x, y):
    return _bitwise(torch.bitwise_right_shift, x, y)


def clip(x, x_min, x_max):
    x = convert_to_tensor(x)
    dtype = torch.int32 if x.dtype == torch.bool else x.dtype
    bounds = [_tensor_or_scalar(b) for b in (x_min, x_max)]
    work = _result_type(_NAMES[dtype], *(core._kind(b) for b in bounds))
    work = _COMPUTE.get(work, work)
    bounds = [b.to(work) if isinstance(b, torch.Tensor) else b for b in bounds]
    return torch.clamp(x.to(work), *bounds).to(dtype)


def where(condition, x1=None, x2=None):
    condition = convert_to_tensor(condition)
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError("where: pass both x1 and x2, or neither.")
    x1, x2, dtype = _tensors(x1, x2)
    out = torch.where(condition.to(torch.bool), _wide(x1), _wide(x2))
    return out.to(dtype)


# -- reductions -------------------------------------------------------------------------------
def sum(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    dtype = _SUM_DTYPES.get(x.dtype, x.dtype)
    wide = _COMPUTE.get(dtype)
    return _reduce(torch.sum, x, axis, keepdims, dtype=wide or dtype).to(dtype)


def prod(x, axis=None, keepdims=False, dtype=None):
    x = convert_to_tensor(x)
    out_dtype = _to_torch_dtype(dtype) if dtype is not None else _SUM_DTYPES.get(x.dtype, x.dtype)
    compute = _COMPUTE.get(out_dtype, out_dtype)
    flat, kept = _to_last(x.to(compute), axis)
    out = torch.prod(flat, dim=-1)
    return (out.reshape(kept) if keepdims else out).to(out_dtype)


def mean(x, axis=None, keepdims=False):
    x = _float(x)
    compute = torch.float32 if x.dtype in _HALF else x.dtype
    return _reduce(torch.mean, x.to(compute), axis, keepdims).to(x.dtype)


def var(x, axis=None, keepdims=False):
    x = _float(x)
    compute = torch.float32 if x.dtype in _HALF else x.dtype
    out = _reduce(torch.var, x.to(compute), axis, keepdims, correction=0)
    return out.to(torch.real(x).dtype)


def std(x, axis=None, keepdims=False):
    return torch.sqrt(var(x, axis, keepdims))


def _extreme(fn, pick, x, axis, keepdims, initial):
    x = convert_to_tensor(x)
    out = _reduce(fn, _wide(x), axis, keepdims)
    if initial is not None:
        out = pick(out, torch.as_tensor(initial, dtype=out.dtype, device=out.device))
    return out.to(x.dtype)


def max(x, axis=None, keepdims=False, initial=None):
    return _extreme(torch.amax, torch.maximum, x, axis, keepdims, initial)


def min(x, axis=None, keepdims=False, initial=None):
    return _extreme(torch.amin, torch.minimum, x, axis, keepdims, initial)


def amax(x, axis=None, keepdims=False):
    return max(x, axis=axis, keepdims=keepdims)


def amin(x, axis=None, keepdims=False):
    return min(x, axis=axis, keepdims=keepdims)


def all(x, axis=None, keepdims=False):
    return _reduce(torch.all, convert_to_tensor(x).to(torch.bool), axis, keepdims)


def any(x, axis=None, keepdims=False):
    return _reduce(torch.any, convert_to_tensor(x).to(torch.bool), axis, keepdims)


def count_nonzero(x, axis=None):
    x = convert_to_tensor(x)
    return _reduce(torch.sum, x != 0, axis, False).to(torch.int32)


def _arg_extreme(fn, x, axis, keepdims):
    x = _int_or_float(x)
    if axis is None:
        out = fn(x.reshape(-1))
        return (out.reshape((1,) * x.ndim) if keepdims else out).to(torch.int32)
    axis = errors.check_axis("argmax", int(axis), x.ndim)
    return fn(x, dim=axis, keepdim=keepdims).to(torch.int32)


def argmax(x, axis=None, keepdims=False):
    return _arg_extreme(torch.argmax, x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _arg_extreme(torch.argmin, x, axis, keepdims)


def _cumulative(fn, x, axis, dtype):
    x = convert_to_tensor(x)
    if dtype is not None:
        out_dtype = _to_torch_dtype(dtype)
    else:
        out_dtype = torch.int32 if x.dtype == torch.bool else x.dtype
    if axis is None:
        x, axis = x.reshape(-1), 0
    compute = _COMPUTE.get(out_dtype, out_dtype)
    return fn(x.to(compute), dim=int(axis)).to(out_dtype)


def cumsum(x, axis=None, dtype=None):
    return _cumulative(torch.cumsum, x, axis, dtype)


def cumprod(x, axis=None, dtype=None):
    return _cumulative(torch.cumprod, x, axis, dtype)


def quantile(x, q, axis=None, method="linear", keepdims=False):
    x = _float(x)
    compute = torch.float64 if x.dtype == torch.float64 else torch.float32
    q = convert_to_tensor(q, dtype=compute)
    flat, kept = _to_last(x.to(compute), axis)
    out = torch.quantile(flat, q, dim=-1, interpolation=method)
    if keepdims:
        out = out.reshape(q.shape + kept)
    return out.to(x.dtype)


def median(x, axis=None, keepdims=False):
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


def trace(x, offset=0, axis1=0, axis2=1):
    x = convert_to_tensor(x)
    dtype = _SUM_DTYPES.get(x.dtype, x.dtype)
    diagonal_ = torch.diagonal(_wide(x), offset=offset, dim1=axis1, dim2=axis2)
    return torch.sum(diagonal_, dim=-1, dtype=_COMPUTE.get(dtype, dtype)).to(dtype)


# -- creation ---------------------------------------------------------------------------------
def _creation_dtype(dtype, *values):
    """The dtype of a created tensor: `dtype`, else the result type of the `values`."""
    if dtype is not None:
        return _to_torch_dtype(dtype)
    return _result_type(*(core._kind(_tensor_or_scalar(v)) for v in values if v is not None))


def zeros(shape, dtype=None):
    return _filled(shape, 0, dtype)


def ones(shape, dtype=None):
    return _filled(shape, 1, dtype)


def zeros_like(x, dtype=None):
    x = convert_to_tensor(x)
    return torch.zeros_like(x, dtype=_to_torch_dtype(dtype) if dtype is not None else x.dtype)


def ones_like(x, dtype=None):
    x = convert_to_tensor(x)
    return _filled(x.shape, 1, dtype if dtype is not None else x.dtype)


def full(shape, fill_value, dtype=None):
    if type(fill_value) in _SCALARS:
        return _filled(shape, fill_value, dtype)
    return convert_to_tensor(fill_value, dtype).expand(_shape(shape)).clone()


def full_like(x, fill_value, dtype=None):
    x = convert_to_tensor(x)
    return full(x.shape, fill_value, dtype if dtype is not None else x.dtype)


def eye(N, M=None, k=0, dtype=None):
    M = N if M is None else M
    rows = torch.arange(int(N), device=_DEVICE).unsqueeze(1)
    cols = torch.arange(int(M), device=_DEVICE).unsqueeze(0)
    return (cols - rows == int(k)).to(_to_torch_dtype(dtype))


def arange(start, stop=None, step=None, dtype=None):
    out_dtype = _creation_dtype(dtype, start, stop, step)
    if stop is None:
        start, stop = 0, start
    start, stop = _python_number(start), _python_number(stop)
    step = 1 if step is None else _python_number(step)
    compute = _COMPUTE.get(out_dtype, out_dtype)
    if compute == torch.bool:
        compute = torch.int8
    return torch.arange(start, stop, step, dtype=compute, device=_DEVICE).to(out_dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    start, stop = convert_to_tensor(start), convert_to_tensor(stop)
    float_dtype = _result_type(_dtype_name(start), _dtype_name(stop), float)
    out_dtype = _to_torch_dtype(dtype) if dtype is not None else float_dtype
    start, stop = torch.broadcast_tensors(start.to(torch.float64), stop.to(torch.float64))
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else torch.full_like(start, float("nan"))
    shape = (num,) + (1,) * start.ndim
    steps = torch.arange(num, dtype=torch.float64, device=start.device).reshape(shape)
    out = start + steps * (step if div > 0 else 0)
    if endpoint and num > 1:
        out[-1] = stop
    out = torch.movedim(out, 0, axis)
    if not (out_dtype.is_floating_point or out_dtype.is_complex):
        out = torch.floor(out)
    out = out.to(out_dtype)
    return (out, step.to(float_dtype)) if retstep else out


def meshgrid(*x, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing must be 'xy' or 'ij', received {indexing!r}.")
    tensors = [convert_to_tensor(v).reshape(-1) for v in x]
    return list(torch.meshgrid(*tensors, indexing=indexing))


def diag(x, k=0):
    x = convert_to_tensor(x)
    if x.ndim not in (1, 2):
        raise ValueError(f"diag needs a 1-D or 2-D input, got rank {x.ndim}.")
    return torch.diag(_wide(x), k).to(x.dtype)


def diagflat(x, k=0):
    x = convert_to_tensor(x)
    return torch.diagflat(_wide(x), k).to(x.dtype)


def tril(x, k=0):
    x = convert_to_tensor(x)
    return torch.tril(_wide(x), k).to(x.dtype)


def triu(x, k=0):
    x = convert_to_tensor(x)
    return torch.triu(_wide(x), k).to(x.dtype)


# -- shape and indexing -----------------------------------------------------------------------
def reshape(x, newshape):
    return convert_to_tensor(x).reshape(_shape(newshape))


def transpose(x, axes=None):
    x = convert_to_tensor(x)
    if axes is None:
        return x.permute(*range(x.ndim - 1, -1, -1))
    axes = _int_list(axes)
    if sorted(a % builtins.max(x.ndim, 1) for a in axes) != list(range(x.ndim)):
        raise ValueError(f"axes {axes} are not a permutation of the {x.ndim} dims.")
    return x.permute(*axes)


def expand_dims(x, axis):
    x = convert_to_tensor(x)
    new_ndim = x.ndim + (1 if isinstance(axis, int) else len(axis))
    positions = _axes(axis, new_ndim)
    shape = iter(x.shape)
    return x.reshape([1 if d in positions else next(shape) for d in range(new_ndim)])


def squeeze(x, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        return x.reshape([d for d in x.shape if d != 1])
    dims = _axes(axis, x.ndim)
    if builtins.any(x.shape[d] != 1 for d in dims):
        raise ValueError(f"Cannot squeeze axis {axis} of a tensor of shape {tuple(x.shape)}.")
    return x.reshape([n for d, n in enumerate(x.shape) if d not in dims])


def broadcast_to(x, shape):
    return torch.broadcast_to(convert_to_tensor(x), _shape(shape))


def flip(x, axis=None):
    x = convert_to_tensor(x)
    dims = tuple(range(x.ndim)) if axis is None else _axes(axis, x.ndim)
    return torch.flip(_wide(x), dims).to(x.dtype)


def roll(x, shift, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        return torch.roll(x.reshape(-1), _int_list(shift)).reshape(x.shape)
    return torch.roll(x, _int_list(shift), _int_list(axis))


def tile(x, repeats):
    return torch.tile(convert_to_tensor(x), tuple(_int_list(repeats)))


def repeat(x, repeats, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        x, axis = x.reshape(-1), 0
    if not isinstance(repeats, int):
        repeats = _index(repeats)
    return torch.repeat_interleave(x, repeats, dim=int(axis))


def concatenate(xs, axis=0):
    xs = _promote(*xs)
    if axis is None:
        return torch.cat([x.reshape(-1) for x in xs])
    return torch.cat(xs, dim=int(axis))


def append(x1, x2, axis=None):
    return concatenate([x1, x2], axis=axis)


def stack(x, axis=0):
    return torch.stack(_promote(*x), dim=int(axis))


def _split_points(n, indices_or_sections, even):
    """The split positions along an axis of length `n` (numpy's split/array_split rules)."""
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("The number of sections must be positive.")
        if even and n % sections:
            raise ValueError(f"An axis of length {n} does not split into {sections} equal parts.")
        size, extra = divmod(n, sections)
        return [i * size + builtins.min(i, extra) for i in range(1, sections)]
    return _int_list(indices_or_sections)


def split(x, indices_or_sections, axis=0):
    x = convert_to_tensor(x)
    axis = errors.check_axis("split", int(axis), x.ndim)
    points = _split_points(x.shape[axis], indices_or_sections, even=True)
    return list(torch.tensor_split(x, points, dim=axis))


def array_split(x, indices_or_sections, axis=0):
    x = convert_to_tensor(x)
    axis = errors.check_axis("array_split", int(axis), x.ndim)
    points = _split_points(x.shape[axis], indices_or_sections, even=False)
    return list(torch.tensor_split(x, points, dim=axis))


def _key(key):
    """An indexing key with NumPy arrays, lists of ints and tensors made torch-friendly."""
    if isinstance(key, tuple):
        return tuple(_key(k) for k in key)
    if isinstance(key, (np.ndarray, list, core.variables.Variable)):
        key = convert_to_tensor(key)
    if isinstance(key, torch.Tensor) and key.dtype != torch.bool:
        return key.long()
    return key


def get_item(x, key):
    x = convert_to_tensor(x)
    return _wide(x)[_key(key)].to(x.dtype)


def _wrap_index(indices, n):
    """Negative indices counted from the end."""
    return torch.where(indices < 0, indices + n, indices)


def take(x, indices, axis=None):
    x = convert_to_tensor(x)
    indices = _index(indices)
    if axis is None:
        x, axis = x.reshape(-1), 0
    axis = errors.check_axis("take", int(axis), x.ndim)
    flat = _wrap_index(indices.reshape(-1), x.shape[axis])
    out = torch.index_select(x, axis, flat)
    return out.reshape(x.shape[:axis] + indices.shape + x.shape[axis + 1 :])


def take_along_axis(x, indices, axis=None):
    x = convert_to_tensor(x)
    indices = _index(indices)
    if axis is None:
        x, indices, axis = x.reshape(-1), indices.reshape(-1), 0
    axis = errors.check_axis("take_along_axis", int(axis), x.ndim)
    if indices.ndim != x.ndim:
        raise ValueError(f"indices must have the rank of x ({x.ndim}), got {indices.ndim}.")
    indices = _wrap_index(indices, x.shape[axis])
    return torch.take_along_dim(_wide(x), indices, dim=axis).to(x.dtype)


def diagonal(x, offset=0, axis1=0, axis2=1):
    return torch.diagonal(convert_to_tensor(x), offset=offset, dim1=axis1, dim2=axis2)


def nonzero(x):
    x = convert_to_tensor(x)
    return tuple(i.to(torch.int32) for i in torch.nonzero(x, as_tuple=True))


def unravel_index(indices, shape):
    indices = _index(indices)
    shape = _shape(shape)
    out = []
    for dim in reversed(shape):
        out.append(torch.remainder(indices, dim).to(torch.int32))
        indices = torch.div(indices, dim, rounding_mode="floor")
    return tuple(reversed(out))


def view(x, dtype=None):
    x = convert_to_tensor(x)
    return x if dtype is None else x.view(_to_torch_dtype(dtype))


# -- sorting and searching --------------------------------------------------------------------
def _flatten_if_none(x, axis):
    return (x.reshape(-1), 0) if axis is None else (x, int(axis))


def sort(x, axis=-1):
    x = convert_to_tensor(x)
    x, axis = _flatten_if_none(x, axis)
    return torch.sort(_int_or_float(x), dim=axis, stable=True).values.to(x.dtype)


def argsort(x, axis=-1):
    x, axis = _flatten_if_none(_int_or_float(x), axis)
    return torch.argsort(x, dim=axis, stable=True).to(torch.int32)


def argpartition(x, kth, axis=-1):
    # A stable full sort is one valid partition for every kth.
    x = _int_or_float(x)
    n = x.shape[axis]
    if not -n <= int(kth) < n:
        raise ValueError(f"kth {kth} is out of bounds for an axis of length {n}.")
    return argsort(x, axis=axis)


def searchsorted(sorted_sequence, values, side="left"):
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', received {side!r}.")
    sequence, values = _promote(sorted_sequence, values)
    if sequence.ndim != 1:
        raise ValueError(f"searchsorted needs a 1-D sorted_sequence, got rank {sequence.ndim}.")
    sequence, values = _int_or_float(sequence), _int_or_float(values)
    return torch.searchsorted(sequence, values, side=side).to(torch.int32)


def digitize(x, bins):
    x, bins = _promote(x, bins)
    x, bins = _int_or_float(x), _int_or_float(bins)
    return torch.bucketize(x, bins, right=True).to(torch.int32)


def isin(x1, x2, assume_unique=False, invert=False):
    x1, x2 = (_int_or_float(v) for v in _promote(x1, x2))
    return torch.isin(x1, x2, assume_unique=assume_unique, invert=invert)


def unique(x, sorted=True, return_index=False, return_inverse=False, return_counts=False,
           axis=None, size=None, fill_value=None):  # fmt: skip
    x = convert_to_tensor(x)
    if axis is None:
        x_flat, dim = x.reshape(-1), 0
    else:
        x_flat, dim = x, errors.check_axis("unique", int(axis), x.ndim)
    values, inverse, counts = torch.unique(
        _wide(x_flat), sorted=True, return_inverse=True, return_counts=True, dim=dim
    )
    values = values.to(x.dtype)
    positions = torch.arange(inverse.shape[0], device=x.device)
    first = torch.full((values.shape[dim],), inverse.shape[0], device=x.device)
    index = first.scatter_reduce(0, inverse, positions, "amin").to(torch.int32)
    inverse = inverse.reshape(x.shape if axis is None else (-1,)).to(torch.int32)
    # As jax.numpy.unique: pad with `fill_value` (default: the smallest value) and its index.
    candidates = [
        (values, True, values.narrow(dim, 0, 1) if fill_value is None else fill_value),
        (index, return_index, index[:1]),
        (inverse, return_inverse, None),
        (counts.to(torch.int32), return_counts, 0),
    ]
    chosen = [(out, fill) for out, wanted, fill in candidates if wanted]
    outputs = [out for out, _ in chosen]
    if size is not None and values.shape[dim]:
        outputs = _fix_unique_size(outputs, [fill for _, fill in chosen], int(size), dim)
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


def _fix_unique_size(outputs, fills, size, dim):
    """Truncate or pad unique's per-value outputs to `size`; a None fill marks one to keep."""
    fixed = []
    for i, (out, fill) in enumerate(zip(outputs, fills)):
        axis = dim if i == 0 else 0
        n = out.shape[axis]
        if fill is None or n == size:
            fixed.append(out)
        elif n > size:
            fixed.append(out.narrow(axis, 0, size))
        else:
            shape = list(out.shape)
            shape[axis] = size - n
            filler = convert_to_tensor(fill, _dtype_name(out)).to(out.device).expand(shape)
            fixed.append(torch.cat([out, filler], dim=axis))
    return fixed


def bincount(x, weights=None, minlength=0, sparse=False):
    if sparse:
        raise ValueError("bincount: sparse=True is not supported by the torch backend.")
    x = convert_to_tensor(x)
    if x.is_floating_point() or x.is_complex() or x.dtype == torch.bool:
        raise ValueError(f"bincount needs an integer tensor, got {_dtype_name(x)}.")
    x = x.long()
    if x.ndim not in (1, 2):
        raise ValueError(f"bincount needs a 1-D or 2-D input, got rank {x.ndim}.")
    length = builtins.max(int(minlength), int(x.max()) + 1 if x.numel() else 0)
    if weights is None:
        dtype, values = torch.int32, torch.ones_like(x, dtype=torch.int32)
    else:
        values = convert_to_tensor(weights)
        dtype = _SUM_DTYPES.get(values.dtype, values.dtype)
        values = values.to(_COMPUTE.get(dtype, dtype))
    rows = x if x.ndim == 2 else x.unsqueeze(0)
    out = torch.zeros(rows.shape[0], length, dtype=values.dtype, device=x.device)
    out = out.scatter_add(1, rows, values.reshape(rows.shape)).to(dtype)
    return out if x.ndim == 2 else out[0]


def histogram(x, bins=10, range=None):
    x = convert_to_tensor(x)
    if x.ndim != 1:
        raise ValueError(f"histogram needs a 1-D input, got rank {x.ndim}.")
    compute = torch.float64
    values = x.to(compute)
    if range is None:
        low, high = (values.min(), values.max()) if values.numel() else (0.0, 1.0)
        low, high = float(low), float(high)
    else:
        low, high = float(range[0]), float(range[1])
    if low == high:
        low, high = low - 0.5, high + 0.5
    edges = torch.linspace(low, high, int(bins) + 1, dtype=compute, device=x.device)
    index = torch.bucketize(values, edges, right=True) - 1
    index = torch.where(values == high, int(bins) - 1, index)
    inside = (index >= 0) & (index < int(bins))
    counts = torch.zeros(int(bins), dtype=torch.int32, device=x.device)
    counts = counts.index_add(0, index[inside], torch.ones_like(index[inside], dtype=torch.int32))
    return counts, edges.to(_float(x).dtype)


# -- linear algebra-like and misc -------------------------------------------------------------
def _int8_to_int32(operands):
    """int8 products accumulate in int32 (as in Keras); other operands promote."""
    operands = _promote(*operands)
    if operands[0].dtype == torch.int8:
        return [o.to(torch.int32) for o in operands]
    return operands


def matmul(x1, x2):
    x1, x2 = _int8_to_int32((x1, x2))
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("matmul: the operands must not be scalars.")
    return _matmul_safe(torch.matmul, x1, x2)


def dot(x1, x2):
    x1, x2 = _promote(x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        return multiply(x1, x2)
    other = 0 if x2.ndim == 1 else x2.ndim - 2
    return _matmul_safe(lambda a, b: torch.tensordot(a, b, ([a.ndim - 1], [other])), x1, x2)


def tensordot(x1, x2, axes=2):
    x1, x2 = _promote(x1, x2)
    if not isinstance(axes, int):
        axes = [_int_list(a) for a in axes]
    return _matmul_safe(lambda a, b: torch.tensordot(a, b, dims=axes), x1, x2)


def einsum(subscripts, *operands, **kwargs):
    operands = _int8_to_int32(operands)
    return _matmul_safe(lambda *ops: torch.einsum(subscripts, *ops), *operands)


def slogdet(x):
    x = _float(x)
    compute = torch.float32 if x.dtype in _HALF else x.dtype
    sign_, logabsdet = torch.linalg.slogdet(x.to(compute))
    return sign_.to(x.dtype), logabsdet.to(x.dtype)


def diff(a, n=1, axis=-1):
    a = convert_to_tensor(a)
    return torch.diff(_wide(a), n=int(n), dim=int(axis)).to(a.dtype)


def correlate(x1, x2, mode="valid"):
    x1, x2 = _float(x1), _float(x2)
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
    return (out.flip(0) if swap else out).to(out_dtype)


def pad(x, pad_width, mode="constant", constant_values=None):
    return padding.numpy_pad(convert_to_tensor(x), pad_width, mode, constant_values)


_SIGNATURE = re.compile(r"\(([^()]*)\)")


def _core_dims(signature):
    """Per input, the number of core dims of a gufunc signature such as '(n),(n)->()'."""
    inputs = signature.split("->")[0]
    return [len([d for d in group.split(",") if d.strip()]) for group in _SIGNATURE.findall(inputs)]


def vectorize(pyfunc, *, excluded=None, signature=None):
    excluded = set(excluded or ())

    def vectorized(*args, **kwargs):
        positions = [i for i in range(len(args)) if i not in excluded]
        tensors = [convert_to_tensor(args[i]) for i in positions]
        cores = _core_dims(signature) if signature else [0] * len(tensors)
        loop_shapes = [t.shape[: t.ndim - c] for t, c in zip(tensors, cores)]
        loop = torch.broadcast_shapes(*loop_shapes)
        flat = [t.expand(*loop, *t.shape[t.ndim - c :]).reshape(-1, *t.shape[t.ndim - c :])
                for t, c in zip(tensors, cores)]  # fmt: skip

        def call(*items):
            full_args = list(args)
            for i, item in zip(positions, items):
                full_args[i] = item
            return pyfunc(*full_args, **kwargs)

        out = core.vectorized_map(lambda items: call(*items), tuple(flat))
        return core.tree.map_structure(lambda o: o.reshape(*loop, *o.shape[1:]), out)

    return vectorized
