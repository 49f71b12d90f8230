"""The tensorflow backend: numpy-style array ops.

Dtypes follow the reference (see `_elementwise` for how operands promote and where TensorFlow
lacks kernels); sorting, statistics and layout helpers live in `_arrays`, indexing in `_indexing`.
"""

import builtins

import numpy as np
import tensorflow as tf

from tripod.backends import dtypes
from tripod.backends.common import dtype_rules, errors
from tripod.backends.tensorflow import _arrays, _indexing
from tripod.backends.tensorflow import _elementwise as ew
from tripod.backends.tensorflow.core import (
    _dtype_name,
    _kind,
    _promote,
    _tf_dtype,
    cast,
    convert_to_tensor,
)


def _flat(x):
    return tf.reshape(x, [-1])


def _axes(axis):
    """A reduction `axis` as TensorFlow takes it (None, or a list of ints)."""
    if axis is None:
        return None
    return list(axis) if isinstance(axis, (tuple, list)) else [axis]


def _check_axis(op, axis, x):
    return errors.check_axis(op, axis, x.shape.rank)


# -- element-wise, one operand ---------------------------------------------------------------------
def _float_op(fn):
    """An op applying `fn` to `x` as a float (integers and bools give floatx)."""

    def op(x):
        return ew.unary(fn, x, floating=True)

    return op


sin = _float_op(tf.sin)
cos = _float_op(tf.cos)
tan = _float_op(tf.tan)
sinh = _float_op(tf.sinh)
cosh = _float_op(tf.cosh)
tanh = _float_op(tf.tanh)
arcsin = _float_op(tf.asin)
arccos = _float_op(tf.acos)
arctan = _float_op(tf.atan)
arcsinh = _float_op(tf.asinh)
arccosh = _float_op(tf.acosh)
arctanh = _float_op(tf.atanh)
exp = _float_op(tf.exp)
exp2 = _float_op(ew.exp2)
expm1 = _float_op(tf.math.expm1)
log = _float_op(tf.math.log)
log10 = _float_op(ew.log_base(10))
log2 = _float_op(ew.log_base(2))
log1p = _float_op(tf.math.log1p)
sqrt = _float_op(tf.sqrt)
cbrt = _float_op(ew.cbrt)
i0 = _float_op(tf.math.special.bessel_i0)
reciprocal = _float_op(tf.math.reciprocal)
ceil = _float_op(tf.math.ceil)
floor = _float_op(tf.floor)


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


def _float_test(fn, combine, on_others):
    """`isnan`-style tests: `fn` on floats, on both parts of complexes, `on_others` elsewhere."""

    def op(x):
        x = convert_to_tensor(x)
        if x.dtype.is_complex:
            return combine(fn(tf.math.real(x)), fn(tf.math.imag(x)))
        if ew.is_float(x):
            return fn(x)
        return tf.fill(tf.shape(x), on_others)

    return op


isnan = _float_test(tf.math.is_nan, tf.logical_or, False)
isinf = _float_test(tf.math.is_inf, tf.logical_or, False)
isfinite = _float_test(tf.math.is_finite, tf.logical_and, True)


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
    info = np.finfo(dtypes.to_numpy(_dtype_name(x)))
    high = tf.constant(info.max if posinf is None else posinf, x.dtype)
    low = tf.constant(info.min if neginf is None else neginf, x.dtype)
    x = tf.where(tf.math.is_nan(x), tf.constant(nan, x.dtype), x)
    return tf.where(x == np.inf, high, tf.where(x == -np.inf, low, x))


def clip(x, x_min, x_max):
    x = convert_to_tensor(x)
    dtype = tf.int32 if x.dtype == tf.bool else x.dtype
    work = ew.work(_tf_dtype(dtypes.result_type(dtype.name, _kind(x_min), _kind(x_max))))
    low, high = cast(x_min, work), cast(x_max, work)
    return tf.cast(tf.minimum(tf.maximum(tf.cast(x, work), low), high), dtype)


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
    return ew.binary(ew.pow, x1, x2)


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
    exponent = _kind(x2)
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
    return ew.compare(tf.equal, x1, x2)


def not_equal(x1, x2):
    return ew.compare(tf.not_equal, x1, x2)


def less(x1, x2):
    return ew.compare(tf.less, x1, x2)


def less_equal(x1, x2):
    return ew.compare(tf.less_equal, x1, x2)


def greater(x1, x2):
    return ew.compare(tf.greater, x1, x2)


def greater_equal(x1, x2):
    return ew.compare(tf.greater_equal, x1, x2)


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


def isin(x1, x2, assume_unique=False, invert=False):
    dtype = ew.work(ew.result(x1, x2))
    x1, x2 = cast(x1, dtype), cast(x2, dtype)
    found = tf.reduce_any(tf.equal(x1[..., None], _flat(x2)), axis=-1)
    return tf.logical_not(found) if invert else found


# -- creation -------------------------------------------------------------------------------------
def _shape_arg(shape):
    if isinstance(shape, (int, np.integer)):
        return [shape]
    return shape


def zeros(shape, dtype=None):
    return tf.zeros(_shape_arg(shape), _tf_dtype(dtype))


def ones(shape, dtype=None):
    return tf.ones(_shape_arg(shape), _tf_dtype(dtype))


def full(shape, fill_value, dtype=None):
    return tf.broadcast_to(cast(fill_value, _tf_dtype(dtype)), _shape_arg(shape))


def _like_dtype(x, dtype):
    return x.dtype if dtype is None else _tf_dtype(dtype)


def zeros_like(x, dtype=None):
    x = convert_to_tensor(x)
    return tf.zeros(tf.shape(x), _like_dtype(x, dtype))


def ones_like(x, dtype=None):
    x = convert_to_tensor(x)
    return tf.ones(tf.shape(x), _like_dtype(x, dtype))


def full_like(x, fill_value, dtype=None):
    x = convert_to_tensor(x)
    return tf.broadcast_to(cast(fill_value, _like_dtype(x, dtype)), tf.shape(x))


def eye(N, M=None, k=0, dtype=None):
    M = N if M is None else M
    return tf.cast(tf.equal(tf.range(N)[:, None] + k, tf.range(M)[None, :]), _tf_dtype(dtype))


def arange(start, stop=None, step=None, dtype=None):
    step = 1 if step is None else step
    if dtype is None:
        dtype = ew.result(*(v for v in (start, stop, step) if v is not None))
    if stop is None:
        start, stop = 0, start
    start, stop, step = (tf.cast(convert_to_tensor(v), tf.float64) for v in (start, stop, step))
    count = tf.maximum(tf.cast(tf.math.ceil((stop - start) / step), tf.int32), 0)
    return tf.cast(start + tf.cast(tf.range(count), tf.float64) * step, _tf_dtype(dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    float_dtype = ew.result(start, stop, floating=True)
    dtype = float_dtype if dtype is None else _tf_dtype(dtype)
    samples, step = _arrays.linspace(
        cast(start, tf.float64), cast(stop, tf.float64), num, endpoint, axis
    )
    if dtype.is_integer:
        samples = tf.floor(samples)
    samples = tf.cast(samples, dtype)
    return (samples, tf.cast(step, float_dtype)) if retstep else samples


def meshgrid(*x, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing must be 'xy' or 'ij', received {indexing!r}.")
    xs = [_flat(convert_to_tensor(v)) for v in x]
    shape = [tf.size(v) for v in xs]
    if indexing == "xy" and len(xs) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    grids = []
    for i, v in enumerate(xs):
        view = [1] * len(xs)
        view[1 - i if indexing == "xy" and i < 2 and len(xs) > 1 else i] = -1
        grids.append(tf.broadcast_to(tf.reshape(v, view), shape))
    return grids


def tril(x, k=0):
    x = convert_to_tensor(x)
    return tf.where(_indexing.band(x, lambda rows, cols: cols <= rows + k), x, tf.zeros_like(x))


def triu(x, k=0):
    x = convert_to_tensor(x)
    return tf.where(_indexing.band(x, lambda rows, cols: cols >= rows + k), x, tf.zeros_like(x))


def diag(x, k=0):
    x = convert_to_tensor(x)
    if x.shape.rank == 1:
        return tf.linalg.diag(x, k=k)
    if x.shape.rank == 2:
        return diagonal(x, offset=k)
    raise ValueError(f"diag needs a 1-D or 2-D input, received rank {x.shape.rank}.")


def diagflat(x, k=0):
    return tf.linalg.diag(_flat(convert_to_tensor(x)), k=k)


def diagonal(x, offset=0, axis1=0, axis2=1):
    return _indexing.diagonal(convert_to_tensor(x), offset, axis1, axis2)


# -- reductions ---------------------------------------------------------------------------------------
def _accumulating(x):
    x = convert_to_tensor(x)
    return tf.cast(x, _tf_dtype(dtype_rules.accumulation_dtype(x.dtype.name)))


def sum(x, axis=None, keepdims=False):
    x = _accumulating(x)
    return tf.reduce_sum(x, axis=_axes(axis), keepdims=keepdims)


def prod(x, axis=None, keepdims=False, dtype=None):
    x = _accumulating(x) if dtype is None else cast(x, dtype)
    result = tf.reduce_prod(tf.cast(x, ew.work(x.dtype)), axis=_axes(axis), keepdims=keepdims)
    return tf.cast(result, x.dtype)


def _float_reduce(fn, x, axis, keepdims):
    """`fn` over `x` as a float (ints give floatx), keeping the float's dtype."""
    dtype = ew.result(x, floating=True)
    return tf.cast(fn(cast(x, ew.work(dtype)), _axes(axis), keepdims), dtype)


def _var(x, axis, keepdims):
    centered = x - tf.reduce_mean(x, axis=axis, keepdims=True)
    if x.dtype.is_complex:
        squares = tf.math.real(centered * tf.math.conj(centered))
    else:
        squares = tf.square(centered)
    return tf.reduce_mean(squares, axis=axis, keepdims=keepdims)


def mean(x, axis=None, keepdims=False):
    return _float_reduce(lambda x, a, k: tf.reduce_mean(x, axis=a, keepdims=k), x, axis, keepdims)


def var(x, axis=None, keepdims=False):
    return _float_reduce(_var, x, axis, keepdims)


def std(x, axis=None, keepdims=False):
    return _float_reduce(lambda x, a, k: tf.sqrt(_var(x, a, k)), x, axis, keepdims)


def median(x, axis=None, keepdims=False):
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


def quantile(x, q, axis=None, method="linear", keepdims=False):
    dtype = ew.result(x, floating=True)
    work = cast(x, tf.float64 if dtype == tf.float64 else tf.float32)
    return tf.cast(_arrays.quantile(work, q, axis, method, keepdims), dtype)


def _extreme(reduce, bool_reduce, combine, op):
    def apply(x, axis=None, keepdims=False, initial=None):
        x = convert_to_tensor(x)
        if initial is None:
            _arrays.check_nonempty(x, _axes(axis), op)
        result = (bool_reduce if x.dtype == tf.bool else reduce)(
            x, axis=_axes(axis), keepdims=keepdims
        )
        return result if initial is None else combine(result, cast(initial, x.dtype))

    return apply


_max = _extreme(tf.reduce_max, tf.reduce_any, ew.maximum, "max")
_min = _extreme(tf.reduce_min, tf.reduce_all, ew.minimum, "min")


def max(x, axis=None, keepdims=False, initial=None):
    return _max(x, axis, keepdims, initial)


def min(x, axis=None, keepdims=False, initial=None):
    return _min(x, axis, keepdims, initial)


def amax(x, axis=None, keepdims=False):
    return _max(x, axis, keepdims)


def amin(x, axis=None, keepdims=False):
    return _min(x, axis, keepdims)


def all(x, axis=None, keepdims=False):
    return tf.reduce_all(cast(x, "bool"), axis=_axes(axis), keepdims=keepdims)


def any(x, axis=None, keepdims=False):
    return tf.reduce_any(cast(x, "bool"), axis=_axes(axis), keepdims=keepdims)


def count_nonzero(x, axis=None):
    x = convert_to_tensor(x)
    return tf.reduce_sum(tf.cast(tf.not_equal(x, tf.zeros_like(x)), tf.int32), axis=_axes(axis))


def argmax(x, axis=None, keepdims=False):
    return _arrays.arg_extreme(tf.argmax, convert_to_tensor(x), axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _arrays.arg_extreme(tf.argmin, convert_to_tensor(x), axis, keepdims)


def _cumulative(fn, x, axis, dtype):
    x = convert_to_tensor(x)
    dtype = _tf_dtype(dtype_rules.cumulative_dtype(x.dtype.name) if dtype is None else dtype)
    x = tf.cast(x, ew.work(dtype))
    if axis is None:
        x, axis = _flat(x), 0
    return tf.cast(fn(x, axis=axis), dtype)


def cumsum(x, axis=None, dtype=None):
    return _cumulative(tf.cumsum, x, axis, dtype)


def cumprod(x, axis=None, dtype=None):
    return _cumulative(tf.math.cumprod, x, axis, dtype)


def trace(x, offset=0, axis1=0, axis2=1):
    x = _accumulating(x)
    return tf.reduce_sum(diagonal(x, offset, axis1, axis2), axis=-1)


def diff(a, n=1, axis=-1):
    a = convert_to_tensor(a)
    axis = _check_axis("diff", axis, a)
    for _ in range(n):
        length = tf.shape(a)[axis]
        head = tf.gather(a, tf.range(1, length), axis=axis)
        tail = tf.gather(a, tf.range(length - 1), axis=axis)
        a = tf.not_equal(head, tail) if a.dtype == tf.bool else ew.subtract(head, tail)
    return a


# -- products -------------------------------------------------------------------------------------------
def _matmul_dtype(operands):
    """int8 products accumulate in int32 (as in Keras); other operands promote."""
    if builtins.all(_kind(x) == "int8" for x in operands):
        return tf.int32
    return ew.result(*operands)


def _contract(fn, dtype, *operands):
    """`fn` (a matmul-like product) over `operands` as `dtype`, computed where TF has kernels."""
    work = ew.WIDE_INT.get(dtype, ew.work(dtype))
    if dtype == tf.bool:
        work = tf.int32
    result = fn(*(cast(x, work) for x in operands))
    if dtype == tf.bool:
        return result > 0
    return tf.cast(result, dtype)


def matmul(x1, x2):
    dtype = _matmul_dtype((x1, x2))
    x1, x2 = convert_to_tensor(x1), convert_to_tensor(x2)
    if x1.shape.rank == 0 or x2.shape.rank == 0:
        raise ValueError("matmul operands must have at least one dimension.")
    return _contract(_arrays.matmul, dtype, x1, x2)


def dot(x1, x2):
    dtype = ew.result(x1, x2)
    x1, x2 = convert_to_tensor(x1), convert_to_tensor(x2)
    if x1.shape.rank == 0 or x2.shape.rank == 0:
        return multiply(x1, x2)
    axes = [[-1], [0]] if x2.shape.rank == 1 else [[-1], [-2]]
    return _contract(lambda a, b: _arrays.tensordot(a, b, axes), dtype, x1, x2)


def tensordot(x1, x2, axes=2):
    return _contract(lambda a, b: _arrays.tensordot(a, b, axes), ew.result(x1, x2), x1, x2)


def einsum(subscripts, *operands, **kwargs):
    dtype = _matmul_dtype(operands)
    return _contract(lambda *xs: tf.einsum(subscripts, *xs, **kwargs), dtype, *operands)


def slogdet(x):
    dtype = ew.result(x, floating=True)
    sign, logdet = tf.linalg.slogdet(cast(x, ew.work(dtype)))
    return tf.cast(sign, dtype), tf.cast(logdet, dtype)


def correlate(x1, x2, mode="valid"):
    dtype = ew.result(x1, x2, floating=True)
    x1, x2 = cast(x1, ew.work(dtype)), cast(x2, ew.work(dtype))
    return tf.cast(_arrays.correlate(x1, x2, mode), dtype)


# -- shape and layout ------------------------------------------------------------------------------
def reshape(x, newshape):
    return tf.reshape(convert_to_tensor(x), _shape_arg(newshape))


def broadcast_to(x, shape):
    return tf.broadcast_to(convert_to_tensor(x), _shape_arg(shape))


def expand_dims(x, axis):
    x = convert_to_tensor(x)
    axes = _axes(axis)
    rank = x.shape.rank + len(axes)
    for a in sorted(errors.check_axis("expand_dims", a, rank) for a in axes):
        x = tf.expand_dims(x, a)
    return x


def squeeze(x, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        return tf.squeeze(x)
    axes = [_check_axis("squeeze", a, x) for a in _axes(axis)]
    if builtins.any(x.shape[a] not in (1, None) for a in axes):
        raise ValueError(f"cannot squeeze axes {axis} of a tensor of shape {x.shape}.")
    return tf.squeeze(x, axes)


def transpose(x, axes=None):
    return tf.transpose(convert_to_tensor(x), None if axes is None else list(axes))


def flip(x, axis=None):
    x = convert_to_tensor(x)
    axes = range(x.shape.rank) if axis is None else _axes(axis)
    return tf.reverse(x, [_check_axis("flip", a, x) for a in axes])


def roll(x, shift, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        return tf.reshape(tf.roll(_flat(x), shift, 0), tf.shape(x))
    return tf.roll(x, shift, axis)


def tile(x, repeats):
    return _arrays.tile(convert_to_tensor(x), repeats)


def repeat(x, repeats, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        x, axis = _flat(x), 0
    return tf.repeat(x, repeats, axis=axis)


def concatenate(xs, axis=0):
    xs = _promote(*xs)
    if axis is None:
        xs, axis = [_flat(x) for x in xs], 0
    return tf.concat(xs, axis=axis)


def append(x1, x2, axis=None):
    return concatenate([x1, x2], axis=axis)


def stack(x, axis=0):
    return tf.stack(_promote(*x), axis=axis)


def split(x, indices_or_sections, axis=0):
    return _arrays.split(convert_to_tensor(x), indices_or_sections, axis, even=True)


def array_split(x, indices_or_sections, axis=0):
    return _arrays.split(convert_to_tensor(x), indices_or_sections, axis, even=False)


def pad(x, pad_width, mode="constant", constant_values=None):
    return _arrays.pad(convert_to_tensor(x), pad_width, mode, constant_values)


def view(x, dtype=None):
    x = convert_to_tensor(x)
    return tf.identity(x) if dtype is None else _arrays.view(x, _tf_dtype(dtype))


# -- indexing, sorting, searching ----------------------------------------------------------------
def get_item(x, key):
    return _indexing.get_item(convert_to_tensor(x), key)


def take(x, indices, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        x, axis = _flat(x), 0
    axis = _check_axis("take", axis, x)
    return tf.gather(x, _indexing.wrap(convert_to_tensor(indices), tf.shape(x)[axis]), axis=axis)


def take_along_axis(x, indices, axis=None):
    return _indexing.take_along_axis(convert_to_tensor(x), convert_to_tensor(indices), axis)


def where(condition, x1=None, x2=None):
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError("where needs both x1 and x2, or neither.")
    x1, x2 = _promote(x1, x2)
    return tf.where(cast(condition, "bool"), x1, x2)


def nonzero(x):
    x = convert_to_tensor(x)
    found = tf.cast(tf.where(tf.not_equal(x, tf.zeros_like(x))), tf.int32)
    return tuple(found[:, i] for i in range(x.shape.rank))


def _flat_if_no_axis(x, axis):
    x = convert_to_tensor(x)
    return (_flat(x), -1) if axis is None else (x, axis)


def sort(x, axis=-1):
    return _arrays.sort(*_flat_if_no_axis(x, axis))


def argsort(x, axis=-1):
    x, axis = _flat_if_no_axis(x, axis)
    if x.shape.rank == 0:
        return tf.zeros((), tf.int32)
    return _arrays.argsort(x, axis)


def argpartition(x, kth, axis=-1):
    x = convert_to_tensor(x)
    axis = _check_axis("argpartition", axis, x)
    size = x.shape[axis]
    if size is not None and not -size <= int(kth) < size:
        raise ValueError(f"kth={kth} is out of bounds for an axis of size {size}.")
    return _arrays.argsort(x, axis)


def searchsorted(sorted_sequence, values, side="left"):
    sorted_sequence = convert_to_tensor(sorted_sequence)
    if sorted_sequence.shape.rank != 1:
        raise ValueError(
            f"sorted_sequence must be 1-D, received rank {sorted_sequence.shape.rank}."
        )
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', received {side!r}.")
    dtype = ew.work(ew.result(sorted_sequence, values))
    return _arrays.searchsorted(cast(sorted_sequence, dtype), cast(values, dtype), side)


def digitize(x, bins):
    dtype = ew.work(ew.result(x, bins))
    return _arrays.digitize(cast(x, dtype), cast(bins, dtype))


def unravel_index(indices, shape):
    indices = tf.cast(convert_to_tensor(indices), tf.int64)
    coords = []
    for dim in reversed(list(_shape_arg(shape))):
        dim = tf.cast(dim, tf.int64)
        coords.append(tf.cast(tf.math.floormod(indices, dim), tf.int32))
        indices = tf.math.floordiv(indices, dim)
    return tuple(reversed(coords))


def unique(x, sorted=True, return_index=False, return_inverse=False, return_counts=False, axis=None, size=None, fill_value=None):  # fmt: skip
    values, index, inverse, counts = _arrays.unique(convert_to_tensor(x), axis, size, fill_value)
    wanted = ((index, return_index), (inverse, return_inverse), (counts, return_counts))
    extras = [v for v, want in wanted if want]
    return (values, *extras) if extras else values


def bincount(x, weights=None, minlength=0, sparse=False):
    if sparse:
        raise ValueError("bincount(sparse=True) is not supported by the tensorflow backend.")
    x = convert_to_tensor(x)
    if not x.dtype.is_integer or x.shape.rank not in (1, 2):
        raise ValueError(
            f"bincount needs a 1-D or 2-D integer tensor, received {x.dtype.name} rank {x.shape.rank}."
        )
    if weights is None:
        dtype = tf.int32
    else:
        weights = convert_to_tensor(weights)
        dtype = _tf_dtype(dtype_rules.accumulation_dtype(weights.dtype.name))
    return _arrays.bincount(x, weights, minlength, dtype)


def histogram(x, bins=10, range=None):
    x = convert_to_tensor(x)
    if x.shape.rank != 1:
        raise ValueError(f"histogram needs a 1-D input, received rank {x.shape.rank}.")
    if not isinstance(bins, int) or bins <= 0:
        raise ValueError(f"bins must be a positive int, received {bins!r}.")
    counts, edges = _arrays.histogram(tf.cast(x, tf.float64), bins, range)
    return counts, tf.cast(edges, ew.result(x, floating=True))


def vectorize(pyfunc, *, excluded=None, signature=None):
    return _arrays.vectorize(pyfunc, excluded, signature)
