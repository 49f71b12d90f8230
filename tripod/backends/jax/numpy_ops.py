"""The jax backend: numpy-style array ops."""

import builtins
import functools
import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tripod.backends import dtypes
from tripod.backends.common import dtype_rules, errors, variables
from tripod.backends.jax import symbolic
from tripod.backends.jax.core import convert_to_tensor
from tripod.backends.jax.helpers import (
    axis_arg,
    bool_to_int,
    dtype_name,
    float_map,
    np_dtype,
    promote,
    promote_float,
    to_float,
    weak_dtype,
)

_INDEX = np_dtype(dtype_rules.INDEX_DTYPE)


def _t(x):
    return convert_to_tensor(x)


def _index(x):
    return x.astype(_INDEX)


# -- element-wise, one operand ----------------------------------------------------------------


def abs(x):
    return jnp.abs(_t(x))


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
    return jnp.invert(_t(x))


def cbrt(x):
    return float_map(jnp.cbrt, x)


def ceil(x):
    return float_map(jnp.ceil, x)


def copy(x):
    return jnp.array(_t(x), copy=True)


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
    return jnp.imag(_t(x))


def isfinite(x):
    return jnp.isfinite(_t(x))


def isinf(x):
    return jnp.isinf(_t(x))


def isnan(x):
    return jnp.isnan(_t(x))


def log(x):
    return float_map(jnp.log, x)


def log10(x):
    return float_map(jnp.log10, x)


def log1p(x):
    return float_map(jnp.log1p, x)


def log2(x):
    return float_map(jnp.log2, x)


def logical_not(x):
    return jnp.logical_not(_t(x))


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    return jnp.nan_to_num(_t(x), nan=nan, posinf=posinf, neginf=neginf)


def negative(x):
    return jnp.negative(_t(x))


def real(x):
    return jnp.real(_t(x))


def reciprocal(x):
    return float_map(jnp.reciprocal, x)


def round(x, decimals=0):
    x = _t(x)
    if x.dtype == jnp.bool_:
        return x
    if dtypes.is_int(x.dtype) and decimals < 0:
        factor = 10.0**-decimals
        return (jnp.round(x.astype(jnp.float64) / factor) * factor).astype(x.dtype)
    return jnp.round(x, decimals)


def sign(x):
    return jnp.sign(_t(x))


def signbit(x):
    return jnp.signbit(_t(x))


def sin(x):
    return float_map(jnp.sin, x)


def sinh(x):
    return float_map(jnp.sinh, x)


def sqrt(x):
    return float_map(jnp.sqrt, x)


def square(x):
    return jnp.square(bool_to_int(_t(x)))


def tan(x):
    return float_map(jnp.tan, x)


def tanh(x):
    return float_map(jnp.tanh, x)


def trunc(x):
    x = _t(x)
    return x if dtypes.is_int(x.dtype) or x.dtype == jnp.bool_ else jnp.trunc(x)


def clip(x, x_min, x_max):
    dtype = bool_to_int(_t(x)).dtype
    return jnp.clip(*promote(x, x_min, x_max)).astype(dtype)


# -- element-wise, two operands ---------------------------------------------------------------


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
    return jnp.power(*_promote_int_bool(x1, x2))


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
    x2 = _t(x2)
    if not dtypes.is_int(x2.dtype):
        raise TypeError(f"the exponents x2 must be integers, received {dtype_name(x2)}.")
    return jnp.ldexp(to_float(x1), x2)


def equal(x1, x2):
    return jnp.equal(*promote(x1, x2))


def not_equal(x1, x2):
    return jnp.not_equal(*promote(x1, x2))


def greater(x1, x2):
    return jnp.greater(*promote(x1, x2))


def greater_equal(x1, x2):
    return jnp.greater_equal(*promote(x1, x2))


def less(x1, x2):
    return jnp.less(*promote(x1, x2))


def less_equal(x1, x2):
    return jnp.less_equal(*promote(x1, x2))


def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    return jnp.isclose(*promote(x1, x2), rtol=rtol, atol=atol, equal_nan=equal_nan)


def logical_and(x1, x2):
    return jnp.logical_and(_t(x1), _t(x2))


def logical_or(x1, x2):
    return jnp.logical_or(_t(x1), _t(x2))


def logical_xor(x1, x2):
    return jnp.logical_xor(_t(x1), _t(x2))


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


# -- creation ---------------------------------------------------------------------------------


def _shape(shape):
    return (int(shape),) if isinstance(shape, (int, np.integer)) else symbolic.dims(shape)


def zeros(shape, dtype=None):
    return jnp.zeros(_shape(shape), np_dtype(dtype))


def ones(shape, dtype=None):
    return jnp.ones(_shape(shape), np_dtype(dtype))


def full(shape, fill_value, dtype=None):
    return jnp.broadcast_to(convert_to_tensor(fill_value, np_dtype(dtype)), _shape(shape))


def zeros_like(x, dtype=None):
    return jnp.zeros_like(_t(x), dtype=_like_dtype(dtype))


def ones_like(x, dtype=None):
    return jnp.ones_like(_t(x), dtype=_like_dtype(dtype))


def full_like(x, fill_value, dtype=None):
    x = _t(x)
    dtype = x.dtype if dtype is None else np_dtype(dtype)
    return jnp.broadcast_to(_t(fill_value).astype(dtype), x.shape)


def _like_dtype(dtype):
    return None if dtype is None else np_dtype(dtype)


def eye(N, M=None, k=0, dtype=None):
    return jnp.eye(N, M, k, dtype=np_dtype(dtype))


def arange(start, stop=None, step=None, dtype=None):
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    if dtype is None:
        dtype = dtypes.result_type(*(weak_dtype(v) for v in (start, stop, step)))
    start, stop, step = (_scalar(v) for v in (start, stop, step))
    return jnp.arange(start, stop, step, dtype=np_dtype(dtype))


def _scalar(value):
    """A Python number from a number or a 0-d tensor."""
    if isinstance(value, (int, float, bool)):
        return value
    return np.asarray(convert_to_tensor(value)).item()


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    compute = dtypes.result_type(weak_dtype(start), weak_dtype(stop), float)
    start, stop = convert_to_tensor(start, compute), convert_to_tensor(stop, compute)
    result = jnp.linspace(start, stop, num, endpoint=endpoint, retstep=True, axis=axis)
    samples, step = result
    samples = samples if dtype is None else _cast_samples(samples, dtype)
    return (samples, step) if retstep else samples


def _cast_samples(samples, dtype):
    """Evenly spaced float samples as `dtype` (integers round down, as numpy does)."""
    if dtypes.is_int(dtype):
        samples = jnp.floor(samples)
    return samples.astype(np_dtype(dtype))


# -- reductions -------------------------------------------------------------------------------


def sum(x, axis=None, keepdims=False):
    x = _t(x)
    dtype = np_dtype(dtype_rules.accumulation_dtype(x.dtype))
    return jnp.sum(x, axis=axis_arg(axis), keepdims=keepdims, dtype=dtype)


def prod(x, axis=None, keepdims=False, dtype=None):
    x = _t(x)
    dtype = np_dtype(dtype or dtype_rules.accumulation_dtype(x.dtype))
    return jnp.prod(x, axis=axis_arg(axis), keepdims=keepdims, dtype=dtype)


def mean(x, axis=None, keepdims=False):
    x = _t(x)
    compute, result = dtype_rules.mean_dtypes(x.dtype)
    out = jnp.mean(x.astype(np_dtype(compute)), axis=axis_arg(axis), keepdims=keepdims)
    return out.astype(np_dtype(result))


def _float_reduction(fn, x, **kwargs):
    """`fn` of `x` computed in at least float32, returned in `x`'s float dtype."""
    x = _t(x)
    compute, _ = dtype_rules.mean_dtypes(x.dtype)
    out = fn(x.astype(np_dtype(compute)), **kwargs)
    return out.astype(np_dtype(dtype_rules.float_dtype(x.dtype)))


def var(x, axis=None, keepdims=False):
    return _float_reduction(jnp.var, x, axis=axis_arg(axis), keepdims=keepdims)


def std(x, axis=None, keepdims=False):
    return _float_reduction(jnp.std, x, axis=axis_arg(axis), keepdims=keepdims)


def median(x, axis=None, keepdims=False):
    return _float_reduction(jnp.median, x, axis=axis_arg(axis), keepdims=keepdims)


def quantile(x, q, axis=None, method="linear", keepdims=False):
    x = _t(x)
    compute, _ = dtype_rules.mean_dtypes(x.dtype)
    q = convert_to_tensor(q, compute)
    fn = (
        _nearest_quantile if method == "nearest" else functools.partial(jnp.quantile, method=method)
    )
    return _float_reduction(fn, x, q=q, axis=axis_arg(axis), keepdims=keepdims)


def _nearest_quantile(x, q, axis, keepdims):
    """The 'nearest' quantile, ties at a half going to the even index as in numpy."""
    count = x.size if axis is None else math.prod(x.shape[a] for a in np.atleast_1d(axis))
    index = q.astype(jnp.float64) * (count - 1)
    higher = jnp.round(index) > jnp.floor(index)
    low, high = (
        jnp.quantile(x, q, axis=axis, method=m, keepdims=keepdims) for m in ("lower", "higher")
    )
    return jnp.where(higher.reshape(q.shape + (1,) * (low.ndim - q.ndim)), high, low)


def max(x, axis=None, keepdims=False, initial=None):
    return jnp.max(_t(x), axis=axis_arg(axis), keepdims=keepdims, initial=initial)


def min(x, axis=None, keepdims=False, initial=None):
    return jnp.min(_t(x), axis=axis_arg(axis), keepdims=keepdims, initial=initial)


def amax(x, axis=None, keepdims=False):
    return jnp.max(_t(x), axis=axis_arg(axis), keepdims=keepdims)


def amin(x, axis=None, keepdims=False):
    return jnp.min(_t(x), axis=axis_arg(axis), keepdims=keepdims)


def all(x, axis=None, keepdims=False):
    return jnp.all(_t(x), axis=axis_arg(axis), keepdims=keepdims)


def any(x, axis=None, keepdims=False):
    return jnp.any(_t(x), axis=axis_arg(axis), keepdims=keepdims)


def argmax(x, axis=None, keepdims=False):
    return _arg_reduce(lax.argmax, "argmax", x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _arg_reduce(lax.argmin, "argmin", x, axis, keepdims)


def _arg_reduce(reduce, name, x, axis, keepdims):
    """The int32 index `reduce` (lax.argmax / argmin) picks along `axis` (None: of all values)."""
    x = _t(x)
    values = x.reshape(-1) if axis is None else x
    along = 0 if axis is None else errors.check_axis(name, axis, x.ndim)
    if values.shape[along] == 0:
        raise ValueError(f"{name} of an empty sequence along axis {along}.")
    if values.dtype == jnp.bool_:
        values = values.astype(jnp.int8)
    out = reduce(values, along, _INDEX)
    if not keepdims:
        return out
    return out.reshape((1,) * x.ndim) if axis is None else jnp.expand_dims(out, along)


def count_nonzero(x, axis=None):
    return jnp.sum(_t(x) != 0, axis=axis_arg(axis), dtype=_INDEX)


def cumsum(x, axis=None, dtype=None):
    x = _t(x)
    dtype = np_dtype(dtype or dtype_rules.cumulative_dtype(x.dtype))
    return jnp.cumsum(x, axis=axis, dtype=dtype)


def cumprod(x, axis=None, dtype=None):
    x = _t(x)
    dtype = np_dtype(dtype or dtype_rules.cumulative_dtype(x.dtype))
    return jnp.cumprod(x, axis=axis, dtype=dtype)


def trace(x, offset=0, axis1=0, axis2=1):
    x = _t(x)
    dtype = np_dtype(dtype_rules.accumulation_dtype(x.dtype))
    return jnp.trace(x, offset=offset, axis1=axis1, axis2=axis2, dtype=dtype)


# -- shape and layout -------------------------------------------------------------------------


def append(x1, x2, axis=None):
    return jnp.append(*promote(x1, x2), axis=axis)


def broadcast_to(x, shape):
    return jnp.broadcast_to(_t(x), _shape(shape))


def concatenate(xs, axis=0):
    return jnp.concatenate(promote(*xs), axis=axis)


def stack(x, axis=0):
    return jnp.stack(promote(*x), axis=axis)


def expand_dims(x, axis):
    return jnp.expand_dims(_t(x), axis_arg(axis))


def squeeze(x, axis=None):
    return jnp.squeeze(_t(x), axis_arg(axis))


def reshape(x, newshape):
    newshape = (int(newshape),) if isinstance(newshape, (int, np.integer)) else newshape
    return jnp.reshape(_t(x), symbolic.reshape_target(newshape))


def transpose(x, axes=None):
    return jnp.transpose(_t(x), axis_arg(axes))


def flip(x, axis=None):
    return jnp.flip(_t(x), axis_arg(axis))


def roll(x, shift, axis=None):
    return jnp.roll(_t(x), shift, axis_arg(axis))


def tile(x, repeats):
    return jnp.tile(_t(x), repeats)


def repeat(x, repeats, axis=None):
    return jnp.repeat(_t(x), _static(repeats), axis=axis)


def split(x, indices_or_sections, axis=0):
    return jnp.split(_t(x), _sections(indices_or_sections), axis=axis)


def array_split(x, indices_or_sections, axis=0):
    return jnp.array_split(_t(x), _sections(indices_or_sections), axis=axis)


def _sections(indices_or_sections):
    if isinstance(indices_or_sections, (int, np.integer)):
        return int(indices_or_sections)
    return [int(i) for i in np.asarray(indices_or_sections).reshape(-1)]


def _static(value):
    """A Python int, list or array argument that shapes the output, as a host value.

    Tensors pass through unchanged (they must then be concrete, outside a trace).
    """
    return value if isinstance(value, (int, jax.Array)) else np.asarray(value)


def diag(x, k=0):
    return jnp.diag(_t(x), k)


def diagflat(x, k=0):
    return jnp.diagflat(_t(x), k)


def diagonal(x, offset=0, axis1=0, axis2=1):
    return jnp.diagonal(_t(x), offset, axis1, axis2)


def tril(x, k=0):
    return jnp.tril(_t(x), k)


def triu(x, k=0):
    return jnp.triu(_t(x), k)


def pad(x, pad_width, mode="constant", constant_values=None):
    x = _t(x)
    pad_width = np.asarray(pad_width).tolist()
    if constant_values is None:
        return jnp.pad(x, pad_width, mode=mode)
    if mode != "constant":
        raise ValueError(f"constant_values is only allowed with mode='constant', not {mode!r}.")
    return jnp.pad(x, pad_width, mode=mode, constant_values=constant_values)


def diff(a, n=1, axis=-1):
    return jnp.diff(_t(a), n=n, axis=axis)


def meshgrid(*x, indexing="xy"):
    return jnp.meshgrid(*(_t(v) for v in x), indexing=indexing)


# -- indexing, searching and sorting ----------------------------------------------------------


def _key(key):
    """An indexing key as jax takes it: lists become index arrays, variables their values."""
    if isinstance(key, tuple):
        return tuple(_key(k) for k in key)
    if isinstance(key, list):
        return np.asarray(convert_to_tensor(key))
    if isinstance(key, variables.Variable):
        return key.value
    return key


def get_item(x, key):
    return _t(x)[_key(key)]


def take(x, indices, axis=None):
    return jnp.take(_t(x), _t(indices), axis=axis)


def take_along_axis(x, indices, axis=None):
    return jnp.take_along_axis(_t(x), _t(indices), axis=axis)


def where(condition, x1=None, x2=None):
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError("x1 and x2 must both be given, or both be None.")
    return jnp.where(_t(condition), *promote(x1, x2))


def nonzero(x):
    return tuple(_index(i) for i in jnp.nonzero(_t(x)))


def sort(x, axis=-1):
    return jnp.sort(_t(x), axis=axis)


def argsort(x, axis=-1):
    x = _t(x)
    x, axis = (
        (x.reshape(-1), 0) if axis is None else (x, errors.check_axis("argsort", axis, x.ndim))
    )
    if x.ndim == 0:
        return jnp.zeros((), _INDEX)
    positions = lax.broadcasted_iota(_INDEX, x.shape, axis)
    return lax.sort((x, positions), dimension=axis, num_keys=1, is_stable=True)[1]


def argpartition(x, kth, axis=-1):
    return _index(jnp.argpartition(_t(x), kth, axis=axis))


def searchsorted(sorted_sequence, values, side="left"):
    sorted_sequence, values = promote(sorted_sequence, values)
    if sorted_sequence.ndim != 1:
        raise ValueError(f"sorted_sequence must be 1-D, received rank {sorted_sequence.ndim}.")
    return _index(jnp.searchsorted(sorted_sequence, values, side=side))


def digitize(x, bins):
    x, bins = promote(x, bins)
    return _index(jnp.digitize(x, bins))


def isin(x1, x2, assume_unique=False, invert=False):
    return jnp.isin(_t(x1), _t(x2), assume_unique=assume_unique, invert=invert)


def bincount(x, weights=None, minlength=0, sparse=False):
    if sparse:
        raise ValueError("sparse=True is not supported by the jax backend.")
    x = _t(x)
    if x.ndim not in (1, 2):
        raise ValueError(f"x must be 1-D or 2-D, received rank {x.ndim}.")
    if weights is None:
        weights = jnp.ones(x.shape, _INDEX)
    else:
        weights = _t(weights)
        weights = weights.astype(np_dtype(dtype_rules.cumulative_dtype(weights.dtype)))
    length = _bincount_length(x, minlength)

    def count(values, w):
        return jnp.bincount(values, w, length=length)

    return count(x, weights) if x.ndim == 1 else jax.vmap(count)(x, weights)


def _bincount_length(x, minlength):
    """The number of bins: past the largest value, at least minlength.

    Inside a trace the values are unknown, so `minlength` alone fixes the number of bins
    (larger values are dropped); it must then be given.
    """
    if isinstance(x, jax.core.Tracer):
        if int(minlength) <= 0:
            raise ValueError("bincount under jit needs minlength (the number of bins).")
        return int(minlength)
    return builtins.max(int(minlength), int(jnp.max(x)) + 1 if x.size else 0)


def histogram(x, bins=10, range=None):
    x = _t(x)
    if x.ndim != 1:
        raise ValueError(f"x must be 1-D, received rank {x.ndim}.")
    counts, edges = jnp.histogram(to_float(x), bins=bins, range=range)
    return _index(counts), edges


def unique(x, sorted=True, return_index=False, return_inverse=False, return_counts=False, axis=None, size=None, fill_value=None):  # fmt: skip
    result = jnp.unique(
        _t(x), return_index=return_index, return_inverse=return_inverse,
        return_counts=return_counts, axis=axis, size=size, fill_value=fill_value,
    )  # fmt: skip
    if not (return_index or return_inverse or return_counts):
        return result
    return (result[0], *(_index(r) for r in result[1:]))


def unravel_index(indices, shape):
    return tuple(_index(i) for i in jnp.unravel_index(_t(indices), _shape(shape)))


# -- products and linear algebra --------------------------------------------------------------


def _int8_accumulator(operands):
    """int32 when every operand is int8 (products then accumulate in int32, as in Keras)."""
    return jnp.int32 if builtins.all(o.dtype == jnp.int8 for o in operands) else None


def matmul(x1, x2):
    x1, x2 = promote(x1, x2)
    return jnp.matmul(x1, x2, preferred_element_type=_int8_accumulator((x1, x2)))


def dot(x1, x2):
    return jnp.dot(*promote(x1, x2))


def tensordot(x1, x2, axes=2):
    return jnp.tensordot(*promote(x1, x2), axes=axes)


def einsum(subscripts, *operands, **kwargs):
    operands = promote(*operands)
    return jnp.einsum(
        subscripts, *operands, preferred_element_type=_int8_accumulator(operands), **kwargs
    )


def correlate(x1, x2, mode="valid"):
    return jnp.correlate(*promote_float(x1, x2), mode=mode)


def slogdet(x):
    sign, logdet = jnp.linalg.slogdet(to_float(x))
    return sign, logdet


# -- functions and views ----------------------------------------------------------------------


def vectorize(pyfunc, *, excluded=None, signature=None):
    return jnp.vectorize(pyfunc, excluded=excluded or frozenset(), signature=signature)


def view(x, dtype=None):
    x = _t(x)
    return x if dtype is None else x.view(np_dtype(dtype))
