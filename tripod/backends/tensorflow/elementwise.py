"""The tensorflow backend: element-wise numpy-style ops (arithmetic, exponentials, trigonometry,
rounding, comparison, logic and bits).

Dtypes follow the reference (see `elementwise_kernels` for how operands promote and where
TensorFlow lacks kernels); sorting, statistics and layout helpers live in `array_kernels`,
indexing in `indexing`.
"""

import builtins

import numpy as np
import tensorflow as tf

from tripod.backends import dtypes
from tripod.backends.common import errors
from tripod.backends.common.naming import named
from tripod.backends.tensorflow import elementwise_kernels as ew
from tripod.backends.tensorflow.tensors import (
    cast,
    convert_to_tensor,
    dtype_name,
    kind_of,
    tf_dtype,
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


# -- element-wise, one operand ---------------------------------------------------------------------
# The op factories here take the op's `name` first and give it to the function they make, so
# that tracebacks and profiles name the op.
def _float_op(name, fn):
    """An op applying `fn` to `x` as a float (integers and bools give floatx)."""

    def op(x):
        return ew.unary(fn, x, floating=True)

    return named(op, name)


sin = _float_op("sin", tf.sin)


cos = _float_op("cos", tf.cos)


tan = _float_op("tan", tf.tan)


sinh = _float_op("sinh", tf.sinh)


cosh = _float_op("cosh", tf.cosh)


tanh = _float_op("tanh", tf.tanh)


arcsin = _float_op("arcsin", tf.asin)


arccos = _float_op("arccos", tf.acos)


arctan = _float_op("arctan", tf.atan)


arcsinh = _float_op("arcsinh", tf.asinh)


arccosh = _float_op("arccosh", tf.acosh)


arctanh = _float_op("arctanh", tf.atanh)


exp = _float_op("exp", tf.exp)


exp2 = _float_op("exp2", ew.exp2)


expm1 = _float_op("expm1", tf.math.expm1)


log = _float_op("log", tf.math.log)


log10 = _float_op("log10", ew.log_base(10))


log2 = _float_op("log2", ew.log_base(2))


log1p = _float_op("log1p", tf.math.log1p)


sqrt = _float_op("sqrt", tf.sqrt)


cbrt = _float_op("cbrt", ew.cbrt)


i0 = _float_op("i0", tf.math.special.bessel_i0)


reciprocal = _float_op("reciprocal", tf.math.reciprocal)


ceil = _float_op("ceil", tf.math.ceil)


floor = _float_op("floor", tf.floor)


def angle(x):
    x = convert_to_tensor(x)
    dtype = ew.result(x, floating=True)
    if dtype.is_complex:
        return tf.math.angle(tf.cast(x, dtype))
    work = tf.cast(x, ew.work(dtype))
    return tf.cast(tf.atan2(tf.zeros_like(work), work), dtype)


def _unsigned_or_bool(x):
    return x.dtype == tf.bool or x.dtype.is_unsigned


def abs(x):
    x = convert_to_tensor(x)
    return tf.identity(x) if _unsigned_or_bool(x) else tf.abs(x)


def negative(x):
    x = convert_to_tensor(x)
    if x.dtype == tf.bool:
        raise TypeError("negative is not defined for bool tensors; use logical_not.")
    # Two's complement for unsigned types (TF has no unsigned Neg, and rewrites `0 - x` into one).
    return tf.bitwise.invert(x) + tf.ones_like(x) if x.dtype.is_unsigned else tf.negative(x)


def sign(x):
    x = convert_to_tensor(x)
    if _unsigned_or_bool(x):
        return tf.cast(tf.not_equal(x, tf.zeros_like(x)), x.dtype)
    return tf.sign(x)


def square(x):
    x = convert_to_tensor(x)
    x = tf.cast(x, tf.int32) if x.dtype == tf.bool else x
    return multiply(x, x)


def trunc(x):
    x = convert_to_tensor(x)
    if not ew.is_float(x):
        return tf.identity(x)
    return tf.where(x < 0, tf.math.ceil(x), tf.floor(x))


def round(x, decimals=0):
    x = convert_to_tensor(x)
    if x.dtype == tf.bool or (not ew.is_float(x) and decimals >= 0):
        return tf.identity(x)
    work = tf.cast(x, tf.float64 if x.dtype.is_integer else ew.work(x.dtype))
    if decimals == 0:
        rounded = tf.round(work)
    else:
        scale = tf.constant(10.0 ** builtins.abs(decimals), work.dtype)
        rounded = tf.round(work * scale) / scale if decimals > 0 else tf.round(work / scale) * scale
    return tf.cast(rounded, x.dtype)


def copy(x):
    return tf.identity(convert_to_tensor(x))


def real(x):
    x = convert_to_tensor(x)
    return tf.math.real(x) if x.dtype.is_complex else tf.identity(x)


def imag(x):
    x = convert_to_tensor(x)
    return tf.math.imag(x) if x.dtype.is_complex else tf.zeros_like(x)


def _float_test(name, fn, combine, on_others):
    """`isnan`-style tests: `fn` on floats, on both parts of complexes, `on_others` elsewhere."""

    def op(x):
        x = convert_to_tensor(x)
        if x.dtype.is_complex:
            return combine(fn(tf.math.real(x)), fn(tf.math.imag(x)))
        if ew.is_float(x):
            return fn(x)
        return tf.fill(tf.shape(x), on_others)

    return named(op, name)


isnan = _float_test("isnan", tf.math.is_nan, tf.logical_or, False)


isinf = _float_test("isinf", tf.math.is_inf, tf.logical_or, False)


isfinite = _float_test("isfinite", tf.math.is_finite, tf.logical_and, True)


def signbit(x):
    x = convert_to_tensor(x)
    if ew.is_float(x):
        return tf.bitcast(x, ew.SAME_WIDTH_INT[x.dtype]) < 0
    if _unsigned_or_bool(x):
        return tf.zeros_like(x, tf.bool)
    return x < 0


def logical_not(x):
    return tf.logical_not(cast(x, "bool"))


def bitwise_invert(x):
    x = convert_to_tensor(x)
    if x.dtype == tf.bool:
        return tf.logical_not(x)
    if not x.dtype.is_integer:
        raise TypeError(f"bitwise_invert needs an integer or bool tensor, received {x.dtype.name}.")
    return tf.bitwise.invert(x)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    x = convert_to_tensor(x)
    if x.dtype.is_complex:
        parts = tf.math.real(x), tf.math.imag(x)
        return tf.complex(*(nan_to_num(p, nan, posinf, neginf) for p in parts))
    if not ew.is_float(x):
        return tf.identity(x)
    info = np.finfo(dtypes.to_numpy(dtype_name(x)))
    high = tf.constant(info.max if posinf is None else posinf, x.dtype)
    low = tf.constant(info.min if neginf is None else neginf, x.dtype)
    x = tf.where(tf.math.is_nan(x), tf.constant(nan, x.dtype), x)
    return tf.where(x == np.inf, high, tf.where(x == -np.inf, low, x))


def clip(x, x_min, x_max):
    x = convert_to_tensor(x)
    dtype = tf.int32 if x.dtype == tf.bool else x.dtype
    work = ew.work(tf_dtype(dtypes.result_type(dtype.name, kind_of(x_min), kind_of(x_max))))
    if work.is_floating and _ordered_numbers(x_min, x_max):
        return tf.cast(ew.clip_by_numbers(tf.cast(x, work), x_min, x_max), dtype)
    low, high = cast(x_min, work), cast(x_max, work)
    return tf.cast(tf.minimum(tf.maximum(tf.cast(x, work), low), high), dtype)


def _ordered_numbers(low, high):
    """Whether the bounds are Python ints or floats (not bools) with `low <= high`."""
    numbers = all(dtypes.dtype_of_python_scalar(b) in (int, float) for b in (low, high))
    return numbers and low <= high


# -- element-wise, two operands ---------------------------------------------------------------------
def add(x1, x2):
    return ew.binary(ew.add, x1, x2)


def subtract(x1, x2):
    return ew.binary(ew.subtract, x1, x2)


def multiply(x1, x2):
    return ew.binary(ew.multiply, x1, x2)


def divide(x1, x2):
    return ew.binary(tf.math.divide, x1, x2, floating=True)


def divide_no_nan(x1, x2):
    # One DivNoNan op (a metric's result() in every traced step), not a where around a divide.
    return ew.binary(tf.math.divide_no_nan, x1, x2, floating=True)


def floor_divide(x1, x2):
    return ew.binary(ew.floordiv, x1, x2)


def mod(x1, x2):
    return ew.binary(ew.floormod, x1, x2)


def fmod(x1, x2):
    return ew.binary(ew.truncmod, x1, x2)


def power(x1, x2):
    errors.check_int_power(ew.result(x1, x2), x1, x2, _any_negative)
    return ew.binary(ew.pow, x1, x2)


def _any_negative(x):
    """Whether integer or bool `x` holds a negative value; None inside a graph (not checked)."""
    return bool(tf.reduce_any(cast(x, "int64") < 0)) if tf.executing_eagerly() else None


def maximum(x1, x2):
    return ew.binary(ew.maximum, x1, x2)


def minimum(x1, x2):
    return ew.binary(ew.minimum, x1, x2)


def fmax(x1, x2):
    return ew.binary(ew.nan_losing(ew.maximum), x1, x2)


def fmin(x1, x2):
    return ew.binary(ew.nan_losing(ew.minimum), x1, x2)


def arctan2(x1, x2):
    return ew.binary(tf.atan2, x1, x2, floating=True)


def hypot(x1, x2):
    return ew.binary(ew.hypot, x1, x2, floating=True)


def logaddexp(x1, x2):
    return ew.binary(ew.logaddexp, x1, x2, floating=True)


def ldexp(x1, x2):
    exponent = kind_of(x2)
    if exponent is not int and not dtypes.is_int(exponent):
        raise TypeError(f"the exponents must be integers, received {exponent}.")
    dtype = ew.result(x1, floating=True)
    x1, x2 = cast(x1, ew.work(dtype)), cast(x2, ew.work(dtype))
    return tf.cast(x1 * tf.pow(tf.constant(2, x1.dtype), x2), dtype)


def gcd(x1, x2):
    return ew.binary(ew.integers_only(ew.gcd, "gcd"), x1, x2)


def lcm(x1, x2):
    return ew.binary(ew.integers_only(ew.lcm, "lcm"), x1, x2)


def nextafter(x1, x2):
    dtype = ew.result(x1, x2, floating=True)
    return ew.nextafter(cast(x1, dtype), cast(x2, dtype))


def bitwise_and(x, y):
    return ew.binary(ew.bitwise(tf.logical_and, tf.bitwise.bitwise_and), x, y)


def bitwise_or(x, y):
    return ew.binary(ew.bitwise(tf.logical_or, tf.bitwise.bitwise_or), x, y)


def bitwise_xor(x, y):
    return ew.binary(ew.bitwise(tf.math.logical_xor, tf.bitwise.bitwise_xor), x, y)


def bitwise_left_shift(x, y):
    return ew.binary(ew.bitwise(ew.wide(tf.bitwise.left_shift), tf.bitwise.left_shift), x, y)


def bitwise_right_shift(x, y):
    return ew.binary(ew.bitwise(ew.wide(tf.bitwise.right_shift), tf.bitwise.right_shift), x, y)


def equal(x1, x2):
    return ew.compare("equal", tf.equal, x1, x2)


def not_equal(x1, x2):
    return ew.compare("not_equal", tf.not_equal, x1, x2)


def less(x1, x2):
    return ew.compare("less", tf.less, x1, x2)


def less_equal(x1, x2):
    return ew.compare("less_equal", tf.less_equal, x1, x2)


def greater(x1, x2):
    return ew.compare("greater", tf.greater, x1, x2)


def greater_equal(x1, x2):
    return ew.compare("greater_equal", tf.greater_equal, x1, x2)


def logical_and(x1, x2):
    return tf.logical_and(cast(x1, "bool"), cast(x2, "bool"))


def logical_or(x1, x2):
    return tf.logical_or(cast(x1, "bool"), cast(x2, "bool"))


def logical_xor(x1, x2):
    return tf.math.logical_xor(cast(x1, "bool"), cast(x2, "bool"))


def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    dtype = ew.work(ew.result(x1, x2))
    if not (dtype.is_floating or dtype.is_complex):
        dtype = tf.float64
    x1, x2 = cast(x1, dtype), cast(x2, dtype)
    real = dtype.real_dtype
    limit = tf.constant(atol, real) + tf.constant(rtol, real) * tf.abs(x2)
    result = tf.equal(x1, x2) | (isfinite(x1) & isfinite(x2) & (tf.abs(x1 - x2) <= limit))
    if equal_nan:
        result = result | (isnan(x1) & isnan(x2))
    return result
