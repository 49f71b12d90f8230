"""Element-wise plumbing for the tensorflow backend: result dtypes, work dtypes and kernels.

Operands promote through `dtypes.result_type`; float16/bfloat16 work is done in float32 and
rounded once, as the reference does. TensorFlow lacks kernels for some dtypes (bool arithmetic,
most unsigned math, small-int matmul): those are computed through a wider type and cast back.
The kernels here take tensors already cast to their compute dtype.
"""

import math

import numpy as np
import tensorflow as tf

from tripod.backends import dtypes
from tripod.backends.tensorflow.tensors import cast, convert_to_tensor, kind_of, tf_dtype

HALF = (tf.float16, tf.bfloat16)
SAME_WIDTH_INT = {
    tf.float16: tf.int16,
    tf.bfloat16: tf.int16,
    tf.float32: tf.int32,
    tf.float64: tf.int64,
}
# Integer types without kernels for some ops, and the type each computes in instead (the results
# agree modulo 2**bits, so casting back gives the narrow type's wrap-around).
WIDE_INT = {
    tf.bool: tf.int8,
    tf.uint8: tf.int32,
    tf.uint16: tf.int32,
    tf.int8: tf.int32,
    tf.int16: tf.int32,
    tf.uint32: tf.int64,
    tf.uint64: tf.int64,
}


def work(dtype):
    """The dtype to compute in for result `dtype`: float32 for half floats."""
    return tf.float32 if dtype in HALF else dtype


def result(*xs, floating=False):
    """The shared result `tf.DType` of operands `xs` (at least a float when `floating`)."""
    kinds = [kind_of(x) for x in xs] + ([float] if floating else [])
    return tf_dtype(dtypes.result_type(*kinds))


def unary(fn, x, floating):
    """`fn` on `x` computed in its work dtype; ints and bools become floatx when `floating`."""
    dtype = result(x, floating=floating)
    return tf.cast(fn(cast(x, work(dtype))), dtype)


def binary(fn, x1, x2, floating=False):
    """`fn` on operands promoted to their shared dtype (a float when `floating`)."""
    dtype = result(x1, x2, floating=floating)
    dtypes.check_python_ints(dtype, x1, x2)
    compute = work(dtype)
    return tf.cast(fn(cast(x1, compute), cast(x2, compute)), dtype)


def wide(fn):
    """`fn` computed through a wider integer type where TensorFlow has no kernel for the input."""

    def apply(*xs):
        dtype = xs[0].dtype
        target = WIDE_INT.get(dtype)
        if target is None:
            return fn(*xs)
        return tf.cast(fn(*(tf.cast(x, target) for x in xs)), dtype)

    return apply


def is_float(x):
    return x.dtype.is_floating


def log_base(base):
    return lambda x: tf.math.log(x) / tf.cast(math.log(base), x.dtype)


def exp2(x):
    return tf.pow(tf.constant(2, x.dtype), x)


def cbrt(x):
    return tf.sign(x) * tf.pow(tf.abs(x), tf.constant(1 / 3, x.dtype))


# -- kernels: functions of tensors already in their compute dtype ------------------------------------
def add(a, b):
    return tf.logical_or(a, b) if a.dtype == tf.bool else tf.add(a, b)


def subtract(a, b):
    if a.dtype == tf.bool:
        raise TypeError("subtract is not defined for bool tensors; use logical_xor.")
    return tf.subtract(a, b)


def multiply(a, b):
    return tf.logical_and(a, b) if a.dtype == tf.bool else tf.multiply(a, b)


def int_division(fn):
    """An integer division-like op that gives 0 where the divisor is 0 (as numpy), not an error."""

    def apply(a, b):
        if is_float(a) or a.dtype.is_complex:
            return fn(a, b)
        if a.dtype == tf.bool:
            return tf.cast(apply(tf.cast(a, tf.int8), tf.cast(b, tf.int8)), tf.bool)
        zero = tf.equal(b, tf.zeros_like(b))
        a = a + tf.zeros_like(b)
        safe = tf.where(zero, tf.ones_like(b), b)
        return tf.where(zero, tf.zeros_like(a), wide(fn)(a, safe))

    return apply


floordiv = int_division(tf.math.floordiv)
floormod = int_division(tf.math.floormod)
truncmod = int_division(tf.truncatemod)


def pow(a, b):
    if a.dtype.is_unsigned or a.dtype in (tf.bool, tf.int8, tf.int16):
        return tf.cast(tf.pow(tf.cast(a, tf.int64), tf.cast(b, tf.int64)), a.dtype)
    return tf.pow(a, b)


def maximum(a, b):
    return tf.logical_or(a, b) if a.dtype == tf.bool else tf.maximum(a, b)


def minimum(a, b):
    return tf.logical_and(a, b) if a.dtype == tf.bool else tf.minimum(a, b)


def nan_losing(fn):
    """`fmax`/`fmin`: like `fn`, but a NaN loses to a number."""

    def apply(a, b):
        if not is_float(a):
            return fn(a, b)
        return tf.where(tf.math.is_nan(a), b, tf.where(tf.math.is_nan(b), a, fn(a, b)))

    return apply


def hypot(a, b):
    a, b = tf.abs(a), tf.abs(b)
    big, small = tf.maximum(a, b), tf.minimum(a, b)
    ratio = small / tf.where(big == 0, tf.ones_like(big), big)
    value = big * tf.sqrt(1 + tf.square(ratio))
    return tf.where(tf.math.is_inf(a) | tf.math.is_inf(b), tf.constant(np.inf, a.dtype), value)


def logaddexp(a, b):
    value = tf.maximum(a, b) + tf.math.log1p(tf.exp(-tf.abs(a - b)))
    return tf.where(a == b, a + tf.constant(math.log(2), a.dtype), value)


def gcd(a, b):
    """Euclid's algorithm on integer tensors, element-wise (signs dropped)."""
    a, b = wide(tf.abs)(a), wide(tf.abs)(b)
    a, b = a + tf.zeros_like(b), b + tf.zeros_like(a)

    def step(a, b):
        done = tf.equal(b, tf.zeros_like(b))
        return tf.where(done, a, b), floormod(a, b)

    return tf.while_loop(lambda a, b: tf.reduce_any(b != 0), step, (a, b))[0]


def lcm(a, b):
    divisor = gcd(a, b)
    return wide(tf.abs)(floordiv(a, divisor) * b)


def integers_only(fn, op):
    def apply(a, b):
        if not (a.dtype.is_integer or a.dtype == tf.bool):
            raise TypeError(f"{op} needs integer inputs, received {a.dtype.name}.")
        return fn(a, b)

    return apply


def nextafter(a, b):
    bits = tf.bitcast(a, SAME_WIDTH_INT[a.dtype])
    one = tf.ones_like(bits)
    stepped = tf.bitcast(tf.where((b > a) == (a > 0), bits + one, bits - one), a.dtype)
    smallest = tf.bitcast(one, a.dtype)
    value = tf.where(a == 0, tf.where(b > 0, smallest, -smallest), stepped)
    value = tf.where(a == b, b, value)
    return tf.where(tf.math.is_nan(a) | tf.math.is_nan(b), a + b, value)


def bitwise(bool_fn, fn):
    def apply(a, b):
        if a.dtype == tf.bool:
            return bool_fn(a, b)
        if not a.dtype.is_integer:
            raise TypeError(f"bitwise ops need integer or bool operands, received {a.dtype.name}.")
        return fn(a, b)

    return apply


def compare(name, fn, x1, x2):
    """`fn` (comparison op `name`) on the promoted operands. A Python int outside an integer
    dtype is compared exactly, as NumPy 2 compares it, not converted (wrapped around)."""
    answer = dtypes.outlying_comparison(name, x1, x2, result)
    if answer is not None:
        return tf.fill(tf.shape(convert_to_tensor(dtypes.non_int_operand(x1, x2))), answer)
    dtype = work(result(x1, x2))
    x1, x2 = cast(x1, dtype), cast(x2, dtype)
    if dtype == tf.bool and fn not in (tf.equal, tf.not_equal):
        x1, x2 = tf.cast(x1, tf.int8), tf.cast(x2, tf.int8)
    return fn(x1, x2)


def clip_by_numbers(x, low, high):
    """Floating `x` limited to the Python numbers `low <= high`, with a lean gradient.

    TensorFlow's gradients of `maximum` and `minimum` also compute, then sum away, gradients for
    the constant bounds: a ReLU6 clip cost five passes over its tensor backwards (a fifth of a
    MobileNetV2 training step). This gradient is `dy` where the value was kept (`low <= x <=
    high`, the bounds included, as the chain through maximum and minimum gives), else 0: two
    passes. The values are those of `minimum(maximum(x, low), high)`; clips to [0, 6] run the
    single ReLU6 kernel, which computes exactly that.
    """

    @tf.custom_gradient
    def clipped(x):
        if (low, high) == (0, 6):
            y = tf.nn.relu6(x)
        else:
            y = tf.minimum(tf.maximum(x, tf.constant(low, x.dtype)), tf.constant(high, x.dtype))

        def grad(dy):  # y == x exactly where x was kept; a select, as maximum's (NaN dy drops)
            return tf.where(tf.equal(y, x), dy, tf.zeros([], dy.dtype))

        return y, grad

    return clipped(x)
