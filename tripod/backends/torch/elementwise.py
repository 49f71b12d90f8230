"""The torch backend: element-wise numpy-style ops (arithmetic, exponentials, trigonometry,
rounding, comparison, logic and bits).

Dtypes follow `tripod.backends.dtypes` (Python scalars are weak). Unsigned 16/32/64-bit tensors,
which torch stores but barely computes with, are computed in a wider signed type and cast back.
"""

import torch

from tripod.backends import dtypes
from tripod.backends.common import errors, variables
from tripod.backends.common.naming import named
from tripod.backends.torch.helpers import (
    HALF_DTYPES,
    as_float,
    widen,
)
from tripod.backends.torch.tensors import (
    COMPUTE_DTYPES,
    DTYPE_NAMES,
    binary_operands,
    binary_tensors,
    cast_to,
    convert_to_tensor,
    dtype_name,
    kind_of,
    result_name,
    tensor_or_scalar,
    torch_result_type,
)

__all__ = [
    "abs",
    "add",
    "angle",
    "arccos",
    "arccosh",
    "arcsin",
    "arcsinh",
    "arctan",
    "arctan2",
    "arctanh",
    "bitwise_and",
    "bitwise_invert",
    "bitwise_left_shift",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "cbrt",
    "ceil",
    "clip",
    "copy",
    "cos",
    "cosh",
    "divide",
    "divide_no_nan",
    "equal",
    "exp",
    "exp2",
    "expm1",
    "floor",
    "floor_divide",
    "fmax",
    "fmin",
    "fmod",
    "gcd",
    "greater",
    "greater_equal",
    "hypot",
    "i0",
    "imag",
    "isclose",
    "isfinite",
    "isinf",
    "isnan",
    "lcm",
    "ldexp",
    "less",
    "less_equal",
    "log",
    "log1p",
    "log2",
    "log10",
    "logaddexp",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "maximum",
    "minimum",
    "mod",
    "multiply",
    "nan_to_num",
    "negative",
    "nextafter",
    "not_equal",
    "power",
    "real",
    "reciprocal",
    "round",
    "sign",
    "signbit",
    "sin",
    "sinh",
    "sqrt",
    "square",
    "subtract",
    "tan",
    "tanh",
    "trunc",
]


# -- elementwise: unary -----------------------------------------------------------------------
# The op factories here take the op's `name` first and give it to the function they make, so
# that tracebacks and profiles name the op.
def _float_unary(name, torch_fn):
    """A unary op computing in float: bool and integer inputs become floatx."""

    def op(x):
        x = as_float(x)
        return cast_to(torch_fn(x) if x.dtype not in HALF_DTYPES else torch_fn(x.float()), x.dtype)

    return named(op, name)


arccos = _float_unary("arccos", torch.arccos)


arccosh = _float_unary("arccosh", torch.arccosh)


arcsin = _float_unary("arcsin", torch.arcsin)


arcsinh = _float_unary("arcsinh", torch.arcsinh)


arctan = _float_unary("arctan", torch.arctan)


arctanh = _float_unary("arctanh", torch.arctanh)


cos = _float_unary("cos", torch.cos)


cosh = _float_unary("cosh", torch.cosh)


exp = _float_unary("exp", torch.exp)


exp2 = _float_unary("exp2", torch.exp2)


expm1 = _float_unary("expm1", torch.expm1)


log = _float_unary("log", torch.log)


log10 = _float_unary("log10", torch.log10)


log1p = _float_unary("log1p", torch.log1p)


log2 = _float_unary("log2", torch.log2)


sin = _float_unary("sin", torch.sin)


sinh = _float_unary("sinh", torch.sinh)


sqrt = _float_unary("sqrt", torch.sqrt)


tan = _float_unary("tan", torch.tan)


tanh = _float_unary("tanh", torch.tanh)


i0 = _float_unary("i0", torch.special.i0)


ceil = _float_unary("ceil", torch.ceil)


floor = _float_unary("floor", torch.floor)


reciprocal = _float_unary("reciprocal", torch.reciprocal)


def _plain_unary(name, torch_fn):
    """The unary op `x -> torch_fn(x)` on `x` as a tensor."""

    def op(x):
        return torch_fn(convert_to_tensor(x))

    return named(op, name)


def _same_dtype_unary(name, torch_fn, for_bool=None):
    """A unary op keeping the input dtype; `for_bool` says what to do with bool (None: the op)."""

    def op(x):
        x = convert_to_tensor(x)
        if x.dtype == torch.bool and for_bool is not None:
            return for_bool(x)
        wide = COMPUTE_DTYPES.get(x.dtype)
        return torch_fn(x) if wide is None else torch_fn(x.to(wide)).to(x.dtype)

    return named(op, name)


def _not_for_bool(name):
    def refuse(x):
        raise TypeError(f"{name} is not defined for bool tensors.")

    return refuse


def _identity(x):
    return x


abs = _same_dtype_unary("abs", torch.abs, for_bool=_identity)


negative = _same_dtype_unary("negative", torch.neg, for_bool=_not_for_bool("negative"))


def _sign(x):
    """numpy's sign: NaN stays NaN, a complex z gives z / |z|."""
    if x.is_complex():
        return torch.sgn(x)
    return torch.where(torch.isnan(x), x, torch.sign(x)) if x.is_floating_point() else torch.sign(x)


sign = _same_dtype_unary("sign", _sign, for_bool=_not_for_bool("sign"))


trunc = _same_dtype_unary("trunc", torch.trunc, for_bool=_identity)


_invert = _same_dtype_unary("_invert", torch.bitwise_not)


def bitwise_invert(x):
    x = convert_to_tensor(x)
    if x.is_floating_point() or x.is_complex():
        raise TypeError(f"bitwise_invert needs an integer or bool tensor, got {dtype_name(x)}.")
    return _invert(x)


def cbrt(x):
    x = as_float(x)
    return torch.sign(x) * torch.abs(x).pow(1.0 / 3.0)


def square(x):
    x = convert_to_tensor(x)
    x = x.to(torch.int32) if x.dtype == torch.bool else x
    wide = widen(x)
    return cast_to((wide * wide), x.dtype)


def round(x, decimals=0):
    x = convert_to_tensor(x)
    if x.is_floating_point():
        return torch.round(x, decimals=decimals)
    if decimals >= 0 or x.dtype == torch.bool:
        return x
    scale = 10.0 ** (-decimals)
    return cast_to((torch.round(x.to(torch.float64) / scale) * scale), x.dtype)


def angle(x):
    return torch.angle(as_float(x))


def real(x):
    x = convert_to_tensor(x)
    return torch.real(x) if x.is_complex() else x


def imag(x):
    x = convert_to_tensor(x)
    return torch.imag(x) if x.is_complex() else torch.zeros_like(x)


def signbit(x):
    x = convert_to_tensor(x)
    return torch.signbit(x) if x.dtype != torch.bool else torch.zeros_like(x)


isfinite = _plain_unary("isfinite", torch.isfinite)


isinf = _plain_unary("isinf", torch.isinf)


isnan = _plain_unary("isnan", torch.isnan)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    x = convert_to_tensor(x)
    if not (x.is_floating_point() or x.is_complex()):
        return x
    return torch.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)


def copy(x):
    return convert_to_tensor(x).clone()


# -- elementwise: binary ----------------------------------------------------------------------
def _binary(name, apply, torch_fn):
    """The binary op `(x1, x2) -> apply(torch_fn, x1, x2)`."""

    def op(x1, x2):
        return apply(torch_fn, x1, x2)

    return named(op, name)


def _arith(fn, x1, x2):
    """`fn` on both operands in their result dtype (wide unsigned types computed wider); a
    Python int out of that dtype's range is an OverflowError, as in NumPy."""
    x1, x2, dtype = binary_operands(x1, x2)
    dtypes.check_python_ints(dtype, x1, x2)
    wide = COMPUTE_DTYPES.get(dtype)
    if wide is None:
        return fn(x1, x2)
    return cast_to(fn(widen(x1), widen(x2)), dtype)


def _tensor_arith(fn, x1, x2):
    """Like `_arith`, for torch functions that take no Python scalars."""
    x1, x2, dtype = binary_tensors(x1, x2, arithmetic=True)
    wide = COMPUTE_DTYPES.get(dtype)
    return cast_to(fn(x1, x2) if wide is None else fn(x1.to(wide), x2.to(wide)), dtype)


def _float_binary(fn, x1, x2):
    """`fn` on both operands as tensors of their result dtype joined with float (half floats
    computed in float32)."""
    x1, x2, dtype = binary_tensors(x1, x2, floating=True)
    if dtype in HALF_DTYPES:
        return fn(x1.float(), x2.float()).to(dtype)
    return fn(x1, x2)


def _divide(fn, x1, x2):
    x1, x2, _ = binary_operands(x1, x2, floating=True)
    return fn(x1, x2)


def _same_kind(x1, x2):
    """Whether tensor `x1` and `x2` already share their result dtype (a common unsigned-free
    dtype, or a float tensor with a weak Python float)."""
    dtype = x1.dtype
    if dtype in COMPUTE_DTYPES:
        return False
    if isinstance(x2, torch.Tensor):
        return x2.dtype == dtype
    return type(x2) is float and dtype.is_floating_point


def _arith_op(name, torch_fn, general=_arith, floating=False, reflected=None):
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

    return named(op, name)


add = _arith_op("add", torch.add, reflected=torch.add)


subtract = _arith_op("subtract", torch.subtract, reflected=torch.rsub)


multiply = _arith_op("multiply", torch.multiply, reflected=torch.multiply)


divide = _arith_op("divide", torch.true_divide, _divide, floating=True)


def divide_no_nan(x1, x2):
    x1, x2, _ = binary_tensors(x1, x2, floating=True)
    zero = x2 == 0
    if not (torch.is_grad_enabled() and (x1.requires_grad or x2.requires_grad)):
        return torch.where(zero, 0.0, x1 / x2)  # the same values, one kernel fewer
    # Differentiated: divide by 1 where x2 is 0, so that no gradient there is 0 * inf = NaN
    return torch.where(zero, 0.0, x1 / torch.where(zero, 1.0, x2))


def _int_arith(fn, x1, x2):
    """`_arith` for ops torch has no bool kernel for: bools are computed as int8."""
    x1, x2, dtype = binary_operands(x1, x2)
    if dtype != torch.bool:
        return _arith(fn, x1, x2)
    x1, x2 = (x.to(torch.int8) if isinstance(x, torch.Tensor) else x for x in (x1, x2))
    return fn(x1, x2).to(torch.bool)


floor_divide = _binary("floor_divide", _int_arith, torch.floor_divide)


mod = _binary("mod", _int_arith, torch.remainder)


fmod = _binary("fmod", _int_arith, torch.fmod)


def power(x1, x2):
    if type(x1) is float and isinstance(x2, torch.Tensor) and x2.dtype.is_floating_point:
        return torch.pow(x1, x2)  # a weak float base: the exponent's dtype (bias corrections)
    x1, x2, dtype = binary_operands(x1, x2)
    if dtype == torch.bool:
        return torch.logical_or(x1, torch.logical_not(torch.as_tensor(x2)))
    errors.check_int_power(DTYPE_NAMES[dtype], x1, x2, _any_negative)
    return _arith(torch.pow, x1, x2)


def _any_negative(x):
    """Whether tensor `x` holds a negative value; None inside torch.compile (not checked)."""
    return None if torch.compiler.is_compiling() else bool((x < 0).any())


def _clamping(name, clamp, pick):
    """An elementwise max/min: a clamp against a Python scalar, else `pick` on two tensors."""

    def op(x1, x2):
        x1, x2, dtype = binary_operands(x1, x2)
        dtypes.check_python_ints(dtype, x1, x2)
        if isinstance(x2, torch.Tensor) or dtype in COMPUTE_DTYPES or dtype == torch.bool:
            return _tensor_arith(pick, x1, x2)
        return clamp(x1, x2)

    return named(op, name)


maximum = _clamping("maximum", torch.clamp_min, torch.maximum)


minimum = _clamping("minimum", torch.clamp_max, torch.minimum)


fmax = _binary("fmax", _tensor_arith, torch.fmax)


fmin = _binary("fmin", _tensor_arith, torch.fmin)


arctan2 = _binary("arctan2", _float_binary, torch.arctan2)


hypot = _binary("hypot", _float_binary, torch.hypot)


logaddexp = _binary("logaddexp", _float_binary, torch.logaddexp)


nextafter = _binary("nextafter", _float_binary, torch.nextafter)


def ldexp(x1, x2):
    x2 = convert_to_tensor(x2)
    if x2.is_floating_point() or x2.is_complex():
        raise TypeError("ldexp: the exponents x2 must be integers.")
    x1 = as_float(x1)
    compute = torch.float32 if x1.dtype in HALF_DTYPES else x1.dtype
    return cast_to(torch.ldexp(x1.to(compute), x2.to(torch.int32)), x1.dtype)


gcd = _binary("gcd", _tensor_arith, torch.gcd)


lcm = _binary("lcm", _tensor_arith, torch.lcm)


def _comparison(name, torch_fn):
    """Comparison op `name`: `torch_fn` in the operands' result dtype (wide unsigned types
    compared wider). A Python int outside an integer dtype is compared exactly, as in NumPy 2."""

    def op(x1, x2):
        x1, x2 = tensor_or_scalar(x1), tensor_or_scalar(x2)
        answer = dtypes.outlying_comparison(name, x1, x2, result_name)
        if answer is not None:
            other = convert_to_tensor(dtypes.non_int_operand(x1, x2))
            return torch.full_like(other, answer, dtype=torch.bool)
        x1, x2, _ = binary_operands(x1, x2)
        return torch_fn(widen(x1), widen(x2))

    return named(op, name)


equal = _comparison("equal", torch.eq)


not_equal = _comparison("not_equal", torch.ne)


greater = _comparison("greater", torch.gt)


greater_equal = _comparison("greater_equal", torch.ge)


less = _comparison("less", torch.lt)


less_equal = _comparison("less_equal", torch.le)


def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    x1, x2, _ = binary_tensors(x1, x2)
    return torch.isclose(widen(x1), widen(x2), rtol=rtol, atol=atol, equal_nan=equal_nan)


def _truth(x):
    """`x` as a bool tensor (torch has no logical kernels for wide unsigned types)."""
    return cast_to(convert_to_tensor(x), torch.bool)


def _logical(fn, x1, x2):
    return fn(_truth(x1), _truth(x2))


def logical_not(x):
    return torch.logical_not(_truth(x))


logical_and = _binary("logical_and", _logical, torch.logical_and)


logical_or = _binary("logical_or", _logical, torch.logical_or)


logical_xor = _binary("logical_xor", _logical, torch.logical_xor)


def _bitwise(name, torch_fn):
    """A bitwise op `(x, y)` on integer or bool operands in their result dtype."""

    def op(x, y):
        x, y, dtype = binary_operands(x, y)
        if dtype.is_floating_point or dtype.is_complex:
            raise TypeError(f"Bitwise ops need integer or bool operands, got {DTYPE_NAMES[dtype]}.")
        return _int_arith(torch_fn, x, y)

    return named(op, name)


bitwise_and = _bitwise("bitwise_and", torch.bitwise_and)


bitwise_or = _bitwise("bitwise_or", torch.bitwise_or)


bitwise_xor = _bitwise("bitwise_xor", torch.bitwise_xor)


bitwise_left_shift = _bitwise("bitwise_left_shift", torch.bitwise_left_shift)


bitwise_right_shift = _bitwise("bitwise_right_shift", torch.bitwise_right_shift)


def clip(x, x_min, x_max):
    x = convert_to_tensor(x)
    dtype = torch.int32 if x.dtype == torch.bool else x.dtype
    bounds = [tensor_or_scalar(b) for b in (x_min, x_max)]
    work = torch_result_type(DTYPE_NAMES[dtype], *(kind_of(b) for b in bounds))
    work = COMPUTE_DTYPES.get(work, work)
    bounds = [b.to(work) if isinstance(b, torch.Tensor) else b for b in bounds]
    return cast_to(torch.clamp(x.to(work), *bounds), dtype)
