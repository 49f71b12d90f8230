"""The numpy backend: element-wise numpy-style ops (arithmetic, exponentials, trigonometry,
rounding, comparison, logic and bits)."""

import numpy as np

from tripod.backends import dtypes
from tripod.backends.numpy import rules
from tripod.backends.numpy.core import convert_to_tensor

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


def _compare(name, fn, x1, x2):
    """`fn` (comparison op `name`) on operands promoted to their shared dtype; a bool result.
    A Python int outside an integer dtype is compared exactly, as NumPy 2 compares it."""
    answer = dtypes.outlying_comparison(name, x1, x2, rules.result)
    if answer is not None:
        return np.full(convert_to_tensor(dtypes.non_int_operand(x1, x2)).shape, answer)
    work = rules.work(rules.result(x1, x2))
    return np.asarray(fn(rules.as_dtype(x1, work), rules.as_dtype(x2, work)))


# -- arithmetic ----------------------------------------------------------------------------------
def add(x1, x2):
    return rules.binary(np.add, x1, x2)


def subtract(x1, x2):
    return rules.binary(np.subtract, x1, x2)


def multiply(x1, x2):
    return rules.binary(np.multiply, x1, x2)


def divide(x1, x2):
    return rules.binary(np.true_divide, x1, x2, floating=True)


def floor_divide(x1, x2):
    return rules.binary(np.floor_divide, x1, x2)


def mod(x1, x2):
    return rules.binary(np.mod, x1, x2)


def fmod(x1, x2):
    return rules.binary(np.fmod, x1, x2)


def power(x1, x2):
    return rules.binary(np.power, x1, x2)


def maximum(x1, x2):
    return rules.binary(np.maximum, x1, x2)


def minimum(x1, x2):
    return rules.binary(np.minimum, x1, x2)


def fmax(x1, x2):
    return rules.binary(np.fmax, x1, x2)


def fmin(x1, x2):
    return rules.binary(np.fmin, x1, x2)


def arctan2(x1, x2):
    return rules.binary(np.arctan2, x1, x2, floating=True)


def hypot(x1, x2):
    return rules.binary(np.hypot, x1, x2, floating=True)


def logaddexp(x1, x2):
    return rules.binary(np.logaddexp, x1, x2, floating=True)


def nextafter(x1, x2):
    dtype = rules.result(x1, x2, floating=True)
    return np.asarray(np.nextafter(rules.as_dtype(x1, dtype), rules.as_dtype(x2, dtype)))


def ldexp(x1, x2):
    exponent = rules.kind(x2)
    if exponent is not int and not dtypes.is_int(exponent):
        raise TypeError(f"the exponents must be integers, received {exponent}.")
    dtype = rules.result(x1, floating=True)
    return rules.finish(
        np.ldexp(rules.as_dtype(x1, rules.work(dtype)), rules.as_dtype(x2, "int32")), dtype
    )


def gcd(x1, x2):
    return rules.binary(np.gcd, x1, x2)


def lcm(x1, x2):
    return rules.binary(np.lcm, x1, x2)


def negative(x):
    return rules.same_map(np.negative, convert_to_tensor(x))


def abs(x):
    x = convert_to_tensor(x)
    if np.iscomplexobj(x):  # the magnitude of a complex number is real
        return np.abs(x)
    return rules.same_map(np.abs, x)


def sign(x):
    return rules.same_map(np.sign, x)


def square(x):
    x = convert_to_tensor(x)
    return multiply(x.astype(np.int32), x.astype(np.int32)) if x.dtype == bool else multiply(x, x)


def reciprocal(x):
    return rules.float_map(np.reciprocal, x)


def sqrt(x):
    return rules.float_map(np.sqrt, x)


def cbrt(x):
    return rules.float_map(np.cbrt, x)


def exp(x):
    return rules.float_map(np.exp, x)


def exp2(x):
    return rules.float_map(np.exp2, x)


def expm1(x):
    return rules.float_map(np.expm1, x)


def log(x):
    return rules.float_map(np.log, x)


def log2(x):
    return rules.float_map(np.log2, x)


def log10(x):
    return rules.float_map(np.log10, x)


def log1p(x):
    return rules.float_map(np.log1p, x)


def sin(x):
    return rules.float_map(np.sin, x)


def cos(x):
    return rules.float_map(np.cos, x)


def tan(x):
    return rules.float_map(np.tan, x)


def arcsin(x):
    return rules.float_map(np.arcsin, x)


def arccos(x):
    return rules.float_map(np.arccos, x)


def arctan(x):
    return rules.float_map(np.arctan, x)


def sinh(x):
    return rules.float_map(np.sinh, x)


def cosh(x):
    return rules.float_map(np.cosh, x)


def tanh(x):
    return rules.float_map(np.tanh, x)


def arcsinh(x):
    return rules.float_map(np.arcsinh, x)


def arccosh(x):
    return rules.float_map(np.arccosh, x)


def arctanh(x):
    return rules.float_map(np.arctanh, x)


def i0(x):
    return rules.float_map(np.i0, x)


def angle(x):
    x = convert_to_tensor(x)
    dtype = rules.result(x, floating=True)
    result = "float64" if dtype == "complex128" else "float32" if dtype == "complex64" else dtype
    return rules.finish(np.angle(rules.as_dtype(x, rules.work(dtype))), result)


def real(x):
    return np.real(convert_to_tensor(x)).copy()


def imag(x):
    return np.imag(convert_to_tensor(x)).copy()


def ceil(x):
    return rules.float_map(np.ceil, x)


def floor(x):
    return rules.float_map(np.floor, x)


def trunc(x):
    return rules.same_map(np.trunc, x)


def round(x, decimals=0):
    x = convert_to_tensor(x)
    if x.dtype == bool:
        return x.copy()
    return rules.finish(np.round(rules.as_dtype(x, rules.work(x.dtype)), decimals), x.dtype)


def clip(x, x_min, x_max):
    x = convert_to_tensor(x)
    dtype = "int32" if x.dtype == bool else x.dtype
    work = rules.work(dtypes.result_type(dtype, rules.kind(x_min), rules.kind(x_max)))
    return rules.finish(
        np.clip(rules.as_dtype(x, work), rules.as_dtype(x_min, work), rules.as_dtype(x_max, work)),
        dtype,
    )


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    x = convert_to_tensor(x)
    if not (dtypes.is_float(x.dtype) or dtypes.is_complex(x.dtype)):
        return x.copy()
    return rules.finish(
        np.nan_to_num(
            rules.as_dtype(x, rules.work(x.dtype)), nan=nan, posinf=posinf, neginf=neginf
        ),
        x.dtype,
    )


# -- comparisons and logic -----------------------------------------------------------------------
def equal(x1, x2):
    return _compare("equal", np.equal, x1, x2)


def not_equal(x1, x2):
    return _compare("not_equal", np.not_equal, x1, x2)


def greater(x1, x2):
    return _compare("greater", np.greater, x1, x2)


def greater_equal(x1, x2):
    return _compare("greater_equal", np.greater_equal, x1, x2)


def less(x1, x2):
    return _compare("less", np.less, x1, x2)


def less_equal(x1, x2):
    return _compare("less_equal", np.less_equal, x1, x2)


def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    work = rules.work(rules.result(x1, x2))
    return np.asarray(
        np.isclose(
            rules.as_dtype(x1, work),
            rules.as_dtype(x2, work),
            rtol=rtol,
            atol=atol,
            equal_nan=equal_nan,
        )
    )


def isfinite(x):
    return np.asarray(np.isfinite(convert_to_tensor(x)))


def isinf(x):
    return np.asarray(np.isinf(convert_to_tensor(x)))


def isnan(x):
    return np.asarray(np.isnan(convert_to_tensor(x)))


def signbit(x):
    x = convert_to_tensor(x)
    return np.asarray(
        np.signbit(x.astype(np.int8) if x.dtype == bool else rules.as_dtype(x, rules.work(x.dtype)))
    )


def logical_and(x1, x2):
    return np.logical_and(convert_to_tensor(x1), convert_to_tensor(x2))


def logical_or(x1, x2):
    return np.logical_or(convert_to_tensor(x1), convert_to_tensor(x2))


def logical_xor(x1, x2):
    return np.logical_xor(convert_to_tensor(x1), convert_to_tensor(x2))


def logical_not(x):
    return np.logical_not(convert_to_tensor(x))


def _bitwise(fn, x, y):
    dtype = rules.result(x, y)
    if not (dtypes.is_int(dtype) or dtype == "bool"):
        raise TypeError(f"bitwise ops need integer or bool operands, received {dtype}.")
    return rules.finish(fn(rules.as_dtype(x, dtype), rules.as_dtype(y, dtype)), dtype)


def bitwise_and(x, y):
    return _bitwise(np.bitwise_and, x, y)


def bitwise_or(x, y):
    return _bitwise(np.bitwise_or, x, y)


def bitwise_xor(x, y):
    return _bitwise(np.bitwise_xor, x, y)


def bitwise_left_shift(x, y):
    return _bitwise(np.left_shift, x, y)


def bitwise_right_shift(x, y):
    return _bitwise(np.right_shift, x, y)


def bitwise_invert(x):
    x = convert_to_tensor(x)
    if not (dtypes.is_int(x.dtype) or x.dtype == bool):
        raise TypeError(f"bitwise_invert needs an integer or bool tensor, received {x.dtype}.")
    return np.invert(x)


def copy(x):
    return np.array(convert_to_tensor(x), copy=True)
