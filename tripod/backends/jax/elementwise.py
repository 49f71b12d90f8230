"""The jax backend: element-wise numpy-style ops (arithmetic, exponentials, trigonometry,
rounding, comparison, logic and bits)."""

import jax
import jax.numpy as jnp
import numpy as np

from tripod.backends import dtypes
from tripod.backends.common import errors
from tripod.backends.jax.core import convert_to_tensor
from tripod.backends.jax.helpers import (
    bool_to_int,
    dtype_name,
    float_map,
    np_dtype,
    promote,
    promote_float,
    result_dtype,
    to_float,
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


def abs(x):
    return jnp.abs(convert_to_tensor(x))


def angle(x):
    x = to_float(x)
    return jnp.angle(x) if dtypes.is_complex(x.dtype) else float_map(jnp.angle, x)


def arccos(x):
    return float_map(jnp.arccos, x)


def arccosh(x):
    return float_map(jnp.arccosh, x)


def arcsin(x):
    return float_map(jnp.arcsin, x)


def arcsinh(x):
    return float_map(jnp.arcsinh, x)


def arctan(x):
    return float_map(jnp.arctan, x)


def arctanh(x):
    return float_map(jnp.arctanh, x)


def bitwise_invert(x):
    return jnp.invert(convert_to_tensor(x))


def cbrt(x):
    return float_map(jnp.cbrt, x)


def ceil(x):
    return float_map(jnp.ceil, x)


def copy(x):
    return jnp.array(convert_to_tensor(x), copy=True)


def cos(x):
    return float_map(jnp.cos, x)


def cosh(x):
    return float_map(jnp.cosh, x)


def exp(x):
    return float_map(jnp.exp, x)


def exp2(x):
    return float_map(jnp.exp2, x)


def expm1(x):
    return float_map(jnp.expm1, x)


def floor(x):
    return float_map(jnp.floor, x)


def i0(x):
    return float_map(jnp.i0, x)


def imag(x):
    return jnp.imag(convert_to_tensor(x))


def isfinite(x):
    return jnp.isfinite(convert_to_tensor(x))


def isinf(x):
    return jnp.isinf(convert_to_tensor(x))


def isnan(x):
    return jnp.isnan(convert_to_tensor(x))


def log(x):
    return float_map(jnp.log, x)


def log10(x):
    return float_map(jnp.log10, x)


def log1p(x):
    return float_map(jnp.log1p, x)


def log2(x):
    return float_map(jnp.log2, x)


def logical_not(x):
    return jnp.logical_not(convert_to_tensor(x))


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    return jnp.nan_to_num(convert_to_tensor(x), nan=nan, posinf=posinf, neginf=neginf)


def negative(x):
    return jnp.negative(convert_to_tensor(x))


def real(x):
    return jnp.real(convert_to_tensor(x))


def reciprocal(x):
    return float_map(jnp.reciprocal, x)


def round(x, decimals=0):
    x = convert_to_tensor(x)
    if x.dtype == jnp.bool_:
        return x
    if dtypes.is_int(x.dtype) and decimals < 0:
        factor = 10.0**-decimals
        return (jnp.round(x.astype(np_dtype("float64")) / factor) * factor).astype(x.dtype)
    return jnp.round(x, decimals)


def sign(x):
    return jnp.sign(convert_to_tensor(x))


def signbit(x):
    return jnp.signbit(convert_to_tensor(x))


def sin(x):
    return float_map(jnp.sin, x)


def sinh(x):
    return float_map(jnp.sinh, x)


def sqrt(x):
    return float_map(jnp.sqrt, x)


def square(x):
    return jnp.square(bool_to_int(convert_to_tensor(x)))


def tan(x):
    return float_map(jnp.tan, x)


def tanh(x):
    return float_map(jnp.tanh, x)


def trunc(x):
    x = convert_to_tensor(x)
    return x if dtypes.is_int(x.dtype) or x.dtype == jnp.bool_ else jnp.trunc(x)


def clip(x, x_min, x_max):
    dtype = bool_to_int(convert_to_tensor(x)).dtype
    return jnp.clip(*promote(x, x_min, x_max)).astype(dtype)


def add(x1, x2):
    return jnp.add(*promote(x1, x2))


def subtract(x1, x2):
    return jnp.subtract(*promote(x1, x2))


def multiply(x1, x2):
    return jnp.multiply(*promote(x1, x2))


def divide(x1, x2):
    return float_map(jnp.divide, x1, x2)


def floor_divide(x1, x2):
    return jnp.floor_divide(*_promote_int_bool(x1, x2))


def mod(x1, x2):
    return jnp.mod(*_promote_int_bool(x1, x2))


def fmod(x1, x2):
    return jnp.fmod(*_promote_int_bool(x1, x2))


def power(x1, x2):
    errors.check_int_power(result_dtype(x1, x2), x1, x2, _any_negative)
    return jnp.power(*_promote_int_bool(x1, x2))


def _any_negative(x):
    """Whether `x` holds a negative value (one host copy); None when traced."""
    x = convert_to_tensor(x)
    return None if isinstance(x, jax.core.Tracer) else bool(np.any(np.asarray(x) < 0))


def _promote_int_bool(x1, x2):
    """Promoted operands, with bools made int32 (for arithmetic that bools do not support)."""
    return [bool_to_int(x) for x in promote(x1, x2)]


def maximum(x1, x2):
    return jnp.maximum(*promote(x1, x2))


def minimum(x1, x2):
    return jnp.minimum(*promote(x1, x2))


def fmax(x1, x2):
    return jnp.fmax(*promote(x1, x2))


def fmin(x1, x2):
    return jnp.fmin(*promote(x1, x2))


def arctan2(x1, x2):
    return float_map(jnp.arctan2, x1, x2)


def hypot(x1, x2):
    return float_map(jnp.hypot, x1, x2)


def logaddexp(x1, x2):
    return float_map(jnp.logaddexp, x1, x2)


def nextafter(x1, x2):
    return jnp.nextafter(*promote_float(x1, x2))


def ldexp(x1, x2):
    x2 = convert_to_tensor(x2)
    if not dtypes.is_int(x2.dtype):
        raise TypeError(f"the exponents x2 must be integers, received {dtype_name(x2)}.")
    return jnp.ldexp(to_float(x1), x2)


def _compare(name, fn, x1, x2):
    """`fn` (comparison op `name`) on the promoted operands. A Python int outside an integer
    dtype is compared exactly, as NumPy 2 compares it."""
    answer = dtypes.outlying_comparison(name, x1, x2, result_dtype)
    if answer is not None:
        return jnp.full_like(convert_to_tensor(dtypes.non_int_operand(x1, x2)), answer, bool)
    return fn(*promote(x1, x2))


def equal(x1, x2):
    return _compare("equal", jnp.equal, x1, x2)


def not_equal(x1, x2):
    return _compare("not_equal", jnp.not_equal, x1, x2)


def greater(x1, x2):
    return _compare("greater", jnp.greater, x1, x2)


def greater_equal(x1, x2):
    return _compare("greater_equal", jnp.greater_equal, x1, x2)


def less(x1, x2):
    return _compare("less", jnp.less, x1, x2)


def less_equal(x1, x2):
    return _compare("less_equal", jnp.less_equal, x1, x2)


def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    return jnp.isclose(*promote(x1, x2), rtol=rtol, atol=atol, equal_nan=equal_nan)


def logical_and(x1, x2):
    return jnp.logical_and(convert_to_tensor(x1), convert_to_tensor(x2))


def logical_or(x1, x2):
    return jnp.logical_or(convert_to_tensor(x1), convert_to_tensor(x2))


def logical_xor(x1, x2):
    return jnp.logical_xor(convert_to_tensor(x1), convert_to_tensor(x2))


def bitwise_and(x, y):
    return jnp.bitwise_and(*promote(x, y))


def bitwise_or(x, y):
    return jnp.bitwise_or(*promote(x, y))


def bitwise_xor(x, y):
    return jnp.bitwise_xor(*promote(x, y))


def bitwise_left_shift(x, y):
    return jnp.left_shift(*_promote_int_bool(x, y))


def bitwise_right_shift(x, y):
    return jnp.right_shift(*_promote_int_bool(x, y))


def gcd(x1, x2):
    return jnp.gcd(*promote(x1, x2))


def lcm(x1, x2):
    return jnp.lcm(*promote(x1, x2))
