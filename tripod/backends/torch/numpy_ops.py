"""The torch backend: numpy-style array ops.

Dtypes follow `tripod.backends.dtypes` (Python scalars are weak). Unsigned 16/32/64-bit tensors,
which torch stores but barely computes with, are computed in a wider signed type and cast back.
"""

import builtins

import numpy as np
import torch
import torch.nn.functional as F

from tripod.backends.common import variables
from tripod.backends.common import vectorize as vectorize_rules
from tripod.backends.torch import core, counting, indexing, padding
from tripod.backends.torch.core import (
    _COMPUTE,
    _NAMES,
    _SCALARS,
    _cast_to,
    _device,
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
    _SUM_DTYPES,
    _axes,
    _axis,
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


# -- elementwise: unary -----------------------------------------------------------------------
def _float_unary(torch_fn):
    """A unary op computing in float: bool and integer inputs become floatx."""

    def op(x):
        x = _float(x)
        return _cast_to(torch_fn(x) if x.dtype not in _HALF else torch_fn(x.float()), x.dtype)

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


def _sign(x):
    """numpy's sign: NaN stays NaN, a complex z gives z / |z|."""
    if x.is_complex():
        return torch.sgn(x)
    return torch.where(torch.isnan(x), x, torch.sign(x)) if x.is_floating_point() else torch.sign(x)


sign = _same_dtype_unary(_sign, for_bool=_not_for_bool("sign"))
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
    x = x.to(torch.int32) if x.dtype == torch.bool else x
    wide = _wide(x)
    return _cast_to((wide * wide), x.dtype)


def round(x, decimals=0):
    x = convert_to_tensor(x)
    if x.is_floating_point():
        return torch.round(x, decimals=decimals)
    if decimals >= 0 or x.dtype == torch.bool:
        return x
    scale = 10.0 ** (-decimals)
    return _cast_to((torch.round(x.to(torch.float64) / scale) * scale), x.dtype)


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
    return _cast_to(fn(_wide(x1), _wide(x2)), dtype)


def _tensors(x1, x2, floating=False):
    """Both operands as tensors of their result dtype (a float when `floating`), and that dtype."""
    x1, x2, dtype = _operands(x1, x2, floating)
    if not isinstance(x1, torch.Tensor):
        x1 = torch.tensor(x1, dtype=dtype, device=x2.device)
    if not isinstance(x2, torch.Tensor):
        x2 = torch.tensor(x2, dtype=dtype, device=x1.device)
    return x1, x2, dtype


def _tensor_arith(fn, x1, x2):
    """Like `_arith`, for torch functions that take no Python scalars."""
    x1, x2, dtype = _tensors(x1, x2)
    wide = _COMPUTE.get(dtype)
    return _cast_to(fn(x1, x2) if wide is None else fn(x1.to(wide), x2.to(wide)), dtype)


def _float_binary(fn, x1, x2):
    """`fn` on both operands as tensors of their result dtype joined with float (half floats
    computed in float32)."""
    x1, x2, dtype = _tensors(x1, x2, floating=True)
    if dtype in _HALF:
        return fn(x1.float(), x2.float()).to(dtype)
    return fn(x1, x2)


def _divide(fn, x1, x2):
    x1, x2, _ = _operands(x1, x2, floating=True)
    return fn(x1, x2)


def _same_kind(x1, x2):
    """Whether tensor `x1` and `x2` already share their result dtype (a common unsigned-free
    dtype, or a float tensor with a weak Python float)."""
    dtype = x1.dtype
    if dtype in _COMPUTE:
        return False
    if isinstance(x2, torch.Tensor):
        return x2.dtype == dtype
    return type(x2) is float and dtype.is_floating_point


def _arith_op(torch_fn, general=_arith, floating=False, reflected=None):
    """A binary arithmetic op whose common cases skip promotion: two tensors (or variables) of
    one dtype, or a float tensor and a Python float (a weak scalar keeps the tensor's dtype);
    with `floating`, only float operands take that path. `reflected(x2, x1)` computes the op
    for a Python float first operand. Other cases go to `general`."""

    def op(x1, x2):
        if isinstance(x1, variables.Variable):
            x1 = x1.value
        if isinstance(x2, variables.Variable):
            x2 = x2.value
        if isinstance(x1, torch.Tensor):
            if _same_kind(x1, x2) and (not floating or x1.dtype.is_floating_point):
                return torch_fn(x1, x2)
        elif reflected is not None and isinstance(x2, torch.Tensor) and _same_kind(x2, x1):
            return reflected(x2, x1)
        return general(torch_fn, x1, x2)

    return op


add = _arith_op(torch.add, reflected=torch.add)
subtract = _arith_op(torch.subtract, reflected=torch.rsub)
multiply = _arith_op(torch.multiply, reflected=torch.multiply)
divide = _arith_op(torch.true_divide, _divide, floating=True)


def divide_no_nan(x1, x2):
    x1, x2, _ = _tensors(x1, x2, floating=True)
    zero = x2 == 0
    if not (torch.is_grad_enabled() and (x1.requires_grad or x2.requires_grad)):
        return torch.where(zero, 0.0, x1 / x2)  # the same values, one kernel fewer
    # Differentiated: divide by 1 where x2 is 0, so that no gradient there is 0 * inf = NaN
    return torch.where(zero, 0.0, x1 / torch.where(zero, 1.0, x2))


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
    if type(x1) is float and isinstance(x2, torch.Tensor) and x2.dtype.is_floating_point:
        return torch.pow(x1, x2)  # a weak float base: the exponent's dtype (bias corrections)
    x1, x2, dtype = _operands(x1, x2)
    if dtype == torch.bool:
        return torch.logical_or(x1, torch.logical_not(torch.as_tensor(x2)))
    return _arith(torch.pow, x1, x2)


def _clamping(clamp, pick):
    """An elementwise max/min: a clamp against a Python scalar, else `pick` on two tensors."""

    def op(x1, x2):
        x1, x2, dtype = _operands(x1, x2)
        if isinstance(x2, torch.Tensor) or dtype in _COMPUTE or dtype == torch.bool:
            return _tensor_arith(pick, x1, x2)
        return clamp(x1, x2)

    return op


maximum = _clamping(torch.clamp_min, torch.maximum)
minimum = _clamping(torch.clamp_max, torch.minimum)
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
    return _cast_to(torch.ldexp(x1.to(compute), x2.to(torch.int32)), x1.dtype)


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


def _truth(x):
    """`x` as a bool tensor (torch has no logical kernels for wide unsigned types)."""
    return _cast_to(convert_to_tensor(x), torch.bool)


def _logical(fn, x1, x2):
    return fn(_truth(x1), _truth(x2))


def logical_not(x):
    return torch.logical_not(_truth(x))


logical_and = _binary(_logical, torch.logical_and)
logical_or = _binary(_logical, torch.logical_or)
logical_xor = _binary(_logical, torch.logical_xor)


def _bitwise(torch_fn):
    """A bitwise op `(x, y)` on integer or bool operands in their result dtype."""

    def op(x, y):
        x, y, dtype = _operands(x, y)
        if dtype.is_floating_point or dtype.is_complex:
            raise TypeError(f"Bitwise ops need integer or bool operands, got {_NAMES[dtype]}.")
        return _int_arith(torch_fn, x, y)

    return op


bitwise_and = _bitwise(torch.bitwise_and)
bitwise_or = _bitwise(torch.bitwise_or)
bitwise_xor = _bitwise(torch.bitwise_xor)
bitwise_left_shift = _bitwise(torch.bitwise_left_shift)
bitwise_right_shift = _bitwise(torch.bitwise_right_shift)


def clip(x, x_min, x_max):
    x = convert_to_tensor(x)
    dtype = torch.int32 if x.dtype == torch.bool else x.dtype
    bounds = [_tensor_or_scalar(b) for b in (x_min, x_max)]
    work = _result_type(_NAMES[dtype], *(core._kind(b) for b in bounds))
    work = _COMPUTE.get(work, work)
    bounds = [b.to(work) if isinstance(b, torch.Tensor) else b for b in bounds]
    return _cast_to(torch.clamp(x.to(work), *bounds), dtype)


def where(condition, x1=None, x2=None):
    condition = convert_to_tensor(condition)
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError("where: pass both x1 and x2, or neither.")
    x1, x2, dtype = _tensors(x1, x2)
    out = torch.where(_cast_to(condition, torch.bool), _wide(x1), _wide(x2))
    return _cast_to(out, dtype)


# -- reductions -------------------------------------------------------------------------------
def sum(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    dtype = _SUM_DTYPES.get(x.dtype, x.dtype)
    wide = _COMPUTE.get(dtype)
    return _cast_to(_reduce(torch.sum, x, axis, keepdims, dtype=wide or dtype), dtype)


def prod(x, axis=None, keepdims=False, dtype=None):
    x = convert_to_tensor(x)
    out_dtype = _to_torch_dtype(dtype) if dtype is not None else _SUM_DTYPES.get(x.dtype, x.dtype)
    compute = _COMPUTE.get(out_dtype, out_dtype)
    flat, kept = _to_last(_cast_to(x, compute), axis)
    out = torch.prod(flat, dim=-1)
    return _cast_to((out.reshape(kept) if keepdims else out), out_dtype)


def mean(x, axis=None, keepdims=False):
    x = _float(x)
    if axis is not None and not keepdims and x.ndim:
        dims = _axes(axis, x.ndim)
        if builtins.all(x.shape[d] == 1 for d in dims):
            return x.squeeze(dims)  # a mean of one value is that value: a view, no kernel
    compute = torch.float32 if x.dtype in _HALF else x.dtype
    return _cast_to(_reduce(torch.mean, _cast_to(x, compute), axis, keepdims), x.dtype)


def var(x, axis=None, keepdims=False):
    x = _float(x)
    compute = torch.float32 if x.dtype in _HALF else x.dtype
    out = _reduce(torch.var, _cast_to(x, compute), axis, keepdims, correction=0)
    return _cast_to(out, torch.real(x).dtype if x.is_complex() else x.dtype)


def std(x, axis=None, keepdims=False):
    return torch.sqrt(var(x, axis, keepdims))


def _extreme(fn, x, axis, keepdims, initial):
    x = convert_to_tensor(x)
    wide = _wide(x)
    if initial is not None:
        wide = _with_initial(wide, axis, initial)
    out = _reduce(fn, wide, axis, keepdims)
    return _cast_to(out.reshape(()) if x.ndim == 0 else out, x.dtype)


def _with_initial(x, axis, initial):
    """`x` with one more entry, `initial`, along every reduced axis (so empty axes reduce)."""
    x = x.reshape(1) if x.ndim == 0 else x
    for d in range(x.ndim) if axis is None else _axes(axis, x.ndim):
        shape = list(x.shape)
        shape[d] = 1
        x = torch.cat([x, torch.full(shape, initial, dtype=x.dtype, device=x.device)], dim=d)
    return x


def max(x, axis=None, keepdims=False, initial=None):
    return _extreme(torch.amax, x, axis, keepdims, initial)


def min(x, axis=None, keepdims=False, initial=None):
    return _extreme(torch.amin, x, axis, keepdims, initial)


def amax(x, axis=None, keepdims=False):
    return max(x, axis=axis, keepdims=keepdims)


def amin(x, axis=None, keepdims=False):
    return min(x, axis=axis, keepdims=keepdims)


def all(x, axis=None, keepdims=False):
    return _reduce(torch.all, _cast_to(convert_to_tensor(x), torch.bool), axis, keepdims)


def any(x, axis=None, keepdims=False):
    return _reduce(torch.any, _cast_to(convert_to_tensor(x), torch.bool), axis, keepdims)


def count_nonzero(x, axis=None):
    x = convert_to_tensor(x)
    return _reduce(torch.sum, x != 0, axis, False).to(torch.int32)


def _arg_extreme(fn, x, axis, keepdims):
    x = _int_or_float(x)
    if axis is None:
        out = fn(x.reshape(-1))
        return (out.reshape((1,) * x.ndim) if keepdims else out).to(torch.int32)
    axis = _axis(axis, x.ndim)
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
    return _cast_to(fn(_cast_to(x, compute), dim=int(axis)), out_dtype)


def cumsum(x, axis=None, dtype=None):
    return _cumulative(torch.cumsum, x, axis, dtype)


def cumprod(x, axis=None, dtype=None):
    return _cumulative(torch.cumprod, x, axis, dtype)


def quantile(x, q, axis=None, method="linear", keepdims=False):
    x = _float(x)
    compute = torch.float64 if x.dtype == torch.float64 else torch.float32
    q = convert_to_tensor(q, dtype=compute)
    flat, kept = _to_last(_cast_to(x, compute), axis)
    out = torch.quantile(flat, q, dim=-1, interpolation=method)
    if keepdims:
        out = out.reshape(q.shape + kept)
    return _cast_to(out, x.dtype)


def median(x, axis=None, keepdims=False):
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


def trace(x, offset=0, axis1=0, axis2=1):
    x = convert_to_tensor(x)
    dtype = _SUM_DTYPES.get(x.dtype, x.dtype)
    diagonal_ = torch.diagonal(_wide(x), offset=offset, dim1=axis1, dim2=axis2)
    return _cast_to(torch.sum(diagonal_, dim=-1, dtype=_COMPUTE.get(dtype, dtype)), dtype)


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
    dtype = _to_torch_dtype(dtype)
    if type(fill_value) in _SCALARS:
        return _filled(shape, fill_value, dtype)
    return convert_to_tensor(fill_value, dtype).expand(_shape(shape)).clone()


def full_like(x, fill_value, dtype=None):
    x = convert_to_tensor(x)
    return full(x.shape, fill_value, dtype if dtype is not None else x.dtype)


def eye(N, M=None, k=0, dtype=None):
    M = N if M is None else M
    rows = torch.arange(int(N), device=_device()).unsqueeze(1)
    cols = torch.arange(int(M), device=_device()).unsqueeze(0)
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
    if (stop - start) * step <= 0:  # numpy gives an empty range where torch refuses
        return torch.zeros((0,), dtype=out_dtype, device=_device())
    return _cast_to(torch.arange(start, stop, step, dtype=compute, device=_device()), out_dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    num = int(num)
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
    lengths = [t.shape[0] for t in tensors]
    # Output dim of each input: its own position, the first two swapped for 'xy'.
    order = list(range(len(tensors)))
    if indexing == "xy" and len(order) > 1:
        order[0], order[1] = 1, 0
    shape = [lengths[order.index(d)] for d in range(len(tensors))]
    grids = []
    for t, d in zip(tensors, order):
        view = [1] * len(tensors)
        view[d] = t.shape[0]
        grids.append(t.reshape(view).expand(shape))
    return grids


def diag(x, k=0):
    x = convert_to_tensor(x)
    if x.ndim not in (1, 2):
        raise ValueError(f"diag needs a 1-D or 2-D input, got rank {x.ndim}.")
    return _cast_to(torch.diag(_wide(x), k), x.dtype)


def diagflat(x, k=0):
    x = convert_to_tensor(x)
    return _cast_to(torch.diagflat(_wide(x), k), x.dtype)


def tril(x, k=0):
    x = convert_to_tensor(x)
    return _cast_to(torch.tril(_wide(x), k), x.dtype)


def triu(x, k=0):
    x = convert_to_tensor(x)
    return _cast_to(torch.triu(_wide(x), k), x.dtype)


# -- shape and indexing -----------------------------------------------------------------------
def reshape(x, newshape):
    return convert_to_tensor(x).reshape(_shape(newshape))


def transpose(x, axes=None):
    x = convert_to_tensor(x)
    if axes is None:
        return x.permute(tuple(reversed(range(x.ndim))))
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
    return _cast_to(torch.flip(_wide(x), dims), x.dtype)


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
        size, extra = n // sections, n % sections  # (divmod does not trace in torch's scan)
        return [i * size + builtins.min(i, extra) for i in range(1, sections)]
    return _int_list(indices_or_sections)


def split(x, indices_or_sections, axis=0):
    x = convert_to_tensor(x)
    axis = _axis(axis, x.ndim)
    points = _split_points(x.shape[axis], indices_or_sections, even=True)
    return list(torch.tensor_split(x, points, dim=axis))


def array_split(x, indices_or_sections, axis=0):
    x = convert_to_tensor(x)
    axis = _axis(axis, x.ndim)
    points = _split_points(x.shape[axis], indices_or_sections, even=False)
    return list(torch.tensor_split(x, points, dim=axis))


def get_item(x, key):
    x, key = indexing.torch_key(convert_to_tensor(x), key)
    return _cast_to(_wide(x)[key], x.dtype)


def _wrap_index(indices, n):
    """Negative indices counted from the end."""
    return torch.where(indices < 0, indices + n, indices)


def take(x, indices, axis=None):
    x = convert_to_tensor(x)
    indices = _index(indices)
    if axis is None:
        x, axis = x.reshape(-1), 0
    axis = _axis(axis, x.ndim)
    flat = _wrap_index(indices.reshape(-1), x.shape[axis])
    out = torch.index_select(x, axis, flat)
    return out.reshape(x.shape[:axis] + indices.shape + x.shape[axis + 1 :])


def take_along_axis(x, indices, axis=None):
    x = convert_to_tensor(x)
    indices = _index(indices)
    if axis is None:
        x, indices, axis = x.reshape(-1), indices.reshape(-1), 0
    axis = _axis(axis, x.ndim)
    if indices.ndim != x.ndim:
        raise ValueError(f"indices must have the rank of x ({x.ndim}), got {indices.ndim}.")
    indices = _wrap_index(indices, x.shape[axis])
    return _cast_to(torch.take_along_dim(_wide(x), indices, dim=axis), x.dtype)


def diagonal(x, offset=0, axis1=0, axis2=1):
    return torch.diagonal(convert_to_tensor(x), offset=offset, dim1=axis1, dim2=axis2)


def nonzero(x):
    x = convert_to_tensor(x)
    mask = x if x.dtype == torch.bool else x != 0
    return tuple(i.to(torch.int32) for i in torch.nonzero(mask, as_tuple=True))


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
    return _cast_to(torch.sort(_int_or_float(x), dim=axis, stable=True).values, x.dtype)


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
    wanted = (return_index, return_inverse, return_counts)
    return counting.unique(convert_to_tensor(x), wanted, axis, size, fill_value)


def bincount(x, weights=None, minlength=0, sparse=False):
    if sparse:
        raise ValueError("bincount: sparse=True is not supported by the torch backend.")
    return counting.bincount(convert_to_tensor(x), weights, int(minlength))


def histogram(x, bins=10, range=None):
    return counting.histogram(convert_to_tensor(x), bins, range)


# -- linear algebra-like and misc -------------------------------------------------------------
def _int8_to_int32(operands):
    """int8 products accumulate in int32 (as in Keras); other operands promote."""
    operands = _promote(*operands)
    if operands[0].dtype == torch.int8:
        return [o.to(torch.int32) for o in operands]
    return operands


def matmul(x1, x2):
    if isinstance(x1, torch.Tensor) and isinstance(x2, torch.Tensor):
        dtype = x1.dtype
        if dtype == x2.dtype and dtype.is_floating_point and x1.ndim and x2.ndim:
            return torch.matmul(x1, x2)  # the common case (a Dense layer): nothing to promote
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
    out = _matmul_safe(lambda *ops: torch.einsum(subscripts, *ops), *operands)
    return _cast_to(out, operands[0].dtype)


def slogdet(x):
    x = _float(x)
    compute = torch.float32 if x.dtype in _HALF else x.dtype
    sign_, logabsdet = torch.linalg.slogdet(_cast_to(x, compute))
    return _cast_to(sign_, x.dtype), _cast_to(logabsdet, x.dtype)


def diff(a, n=1, axis=-1):
    a = convert_to_tensor(a)
    return _cast_to(torch.diff(_wide(a), n=int(n), dim=int(axis)), a.dtype)


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
    return _cast_to((out.flip(0) if swap else out), out_dtype)


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
