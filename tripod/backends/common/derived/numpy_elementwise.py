"""Element-wise NumPy-style ops written over a backend's other ops (aliases, inf tests, select)."""

import math

from tripod.backends import dtypes
from tripod.backends.common.derived import helpers as c

__all__ = [
    "absolute",
    "bitwise_not",
    "conj",
    "conjugate",
    "deg2rad",
    "divide_no_nan",
    "fabs",
    "heaviside",
    "isneginf",
    "isposinf",
    "isreal",
    "left_shift",
    "logaddexp2",
    "rad2deg",
    "right_shift",
    "select",
    "sinc",
    "true_divide",
]


# -- aliases -------------------------------------------------------------------------------------
def absolute(ops, x):
    return ops.abs(x)


def fabs(ops, x):
    return ops.abs(c.to_float(ops, x))


def conj(ops, x):
    x = ops.convert_to_tensor(x)
    if not dtypes.is_complex(c.dtype_of(ops, x)):
        return x
    return c.complex_from_parts(ops, ops.real(x), ops.negative(ops.imag(x)))


def conjugate(ops, x):
    return ops.conj(x)


def true_divide(ops, x1, x2):
    return ops.divide(x1, x2)


def bitwise_not(ops, x):
    return ops.bitwise_invert(x)


def left_shift(ops, x, y):
    return ops.bitwise_left_shift(x, y)


def right_shift(ops, x, y):
    return ops.bitwise_right_shift(x, y)


# -- element-wise --------------------------------------------------------------------------------
def heaviside(ops, x1, x2):
    x1, x2 = c.promote(ops, x1, x2, floating=True)
    step = ops.where(ops.less(x1, 0), 0.0, ops.where(ops.greater(x1, 0), 1.0, x2))
    return ops.where(ops.isnan(x1), x1, step)


def sinc(ops, x):
    x = c.to_float(ops, x)
    zero = ops.equal(x, 0)
    scaled = ops.where(zero, 1.0, ops.multiply(x, math.pi))
    return ops.where(zero, 1.0, ops.divide(ops.sin(scaled), scaled))


def _is_signed_inf(ops, x, negative):
    x = ops.convert_to_tensor(x)
    if not c.is_float(ops, x):
        return ops.zeros_like(x, dtype="bool")
    side = ops.less(x, 0) if negative else ops.greater(x, 0)
    return ops.logical_and(ops.isinf(x), side)


def isneginf(ops, x):
    return _is_signed_inf(ops, x, negative=True)


def isposinf(ops, x):
    return _is_signed_inf(ops, x, negative=False)


def isreal(ops, x):
    x = ops.convert_to_tensor(x)
    if dtypes.is_complex(c.dtype_of(ops, x)):
        return ops.equal(ops.imag(x), 0)
    return ops.ones_like(x, dtype="bool")


def divide_no_nan(ops, x1, x2):
    x1, x2 = c.promote(ops, x1, x2, floating=True)
    zero = ops.equal(x2, 0)
    return ops.where(zero, 0.0, ops.divide(x1, ops.where(zero, 1.0, x2)))


def logaddexp2(ops, x1, x2):
    x1, x2 = c.promote(ops, x1, x2, floating=True)
    same = ops.equal(x1, x2)
    gap = ops.abs(ops.subtract(ops.where(same, 0.0, x1), ops.where(same, 0.0, x2)))
    tail = ops.divide(ops.log1p(ops.exp2(ops.negative(gap))), math.log(2.0))
    return ops.add(ops.maximum(x1, x2), tail)


def deg2rad(ops, x):
    return ops.multiply(c.to_float(ops, x), math.pi / 180.0)


def rad2deg(ops, x):
    return ops.multiply(c.to_float(ops, x), 180.0 / math.pi)


def select(ops, condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError(
            f"ops.select: condlist ({len(condlist)}) and choicelist ({len(choicelist)}) "
            "must have the same length."
        )
    if not condlist:
        raise ValueError("ops.select: condlist must not be empty.")
    dtype = dtypes.result_type(*(c.kind_of(ops, v) for v in (*choicelist, default)))
    result = ops.cast(default, dtype)
    for condition, choice in reversed(list(zip(condlist, choicelist))):
        result = ops.where(ops.cast(condition, "bool"), ops.cast(choice, dtype), result)
    return result
