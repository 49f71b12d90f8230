"""The numpy backend: numpy-style array ops (dtype rules in `_rules`; index results are int32)."""

import builtins

import numpy as np

from tripod.backends import dtypes
from tripod.backends.common import dtype_rules, errors
from tripod.backends.numpy import _rules as rules
from tripod.backends.numpy.core import convert_to_tensor


def _elementwise(fn, x1, x2, floating=False):
    """`fn` on operands promoted to their shared dtype (a float when `floating`)."""
    dtype = rules.result(x1, x2, floating=floating)
    work = rules.work(dtype)
    with rules.quiet():
        return rules.finish(fn(rules.as_dtype(x1, work), rules.as_dtype(x2, work)), dtype)


def _compare(fn, x1, x2):
    """`fn` (a comparison) on operands promoted to their shared dtype; a bool result."""
    work = rules.work(rules.result(x1, x2))
    return np.asarray(fn(rules.as_dtype(x1, work), rules.as_dtype(x2, work)))


def _axis(axis):
    """An axis argument as NumPy takes it (lists become tuples)."""
    return tuple(axis) if isinstance(axis, list) else axis


# -- arithmetic ----------------------------------------------------------------------------------
def add(x1, x2):
    return _elementwise(np.add, x1, x2)


def subtract(x1, x2):
    return _elementwise(np.subtract, x1, x2)


def multiply(x1, x2):
    return _elementwise(np.multiply, x1, x2)


def divide(x1, x2):
    return _elementwise(np.true_divide, x1, x2, floating=True)


def floor_divide(x1, x2):
    return _elementwise(np.floor_divide, x1, x2)


def mod(x1, x2):
    return _elementwise(np.mod, x1, x2)


def fmod(x1, x2):
    return _elementwise(np.fmod, x1, x2)


def power(x1, x2):
    return _elementwise(np.power, x1, x2)


def maximum(x1, x2):
    return _elementwise(np.maximum, x1, x2)


def minimum(x1, x2):
    return _elementwise(np.minimum, x1, x2)


def fmax(x1, x2):
    return _elementwise(np.fmax, x1, x2)


def fmin(x1, x2):
    return _elementwise(np.fmin, x1, x2)


def arctan2(x1, x2):
    return _elementwise(np.arctan2, x1, x2, floating=True)


def hypot(x1, x2):
    return _elementwise(np.hypot, x1, x2, floating=True)


def logaddexp(x1, x2):
    return _elementwise(np.logaddexp, x1, x2, floating=True)


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
    return _elementwise(np.gcd, x1, x2)


def lcm(x1, x2):
    return _elementwise(np.lcm, x1, x2)


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
    return _compare(np.equal, x1, x2)


def not_equal(x1, x2):
    return _compare(np.not_equal, x1, x2)


def greater(x1, x2):
    return _compare(np.greater, x1, x2)


def greater_equal(x1, x2):
    return _compare(np.greater_equal, x1, x2)


def less(x1, x2):
    return _compare(np.less, x1, x2)


def less_equal(x1, x2):
    return _compare(np.less_equal, x1, x2)


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


def isin(x1, x2, assume_unique=False, invert=False):
    work = rules.work(rules.result(x1, x2))
    return np.isin(
        rules.as_dtype(x1, work),
        rules.as_dtype(x2, work),
        assume_unique=assume_unique,
        invert=invert,
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


# -- reductions ----------------------------------------------------------------------------------
def sum(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    dtype = dtype_rules.accumulation_dtype(x.dtype)
    return rules.finish(
        np.sum(x, axis=_axis(axis), keepdims=keepdims, dtype=rules.work(dtype)), dtype
    )


def prod(x, axis=None, keepdims=False, dtype=None):
    x = convert_to_tensor(x)
    dtype = (
        dtype_rules.accumulation_dtype(x.dtype)
        if dtype is None
        else dtypes.standardize_dtype(dtype)
    )
    return rules.finish(
        np.prod(x, axis=_axis(axis), keepdims=keepdims, dtype=rules.work(dtype)), dtype
    )


def _float_reduce(fn, x, axis, keepdims, **kwargs):
    """`fn` over `x` as a float (ints give floatx), keeping the float's dtype."""
    dtype = rules.result(x, floating=True)
    return rules.finish(
        fn(rules.as_dtype(x, rules.work(dtype)), axis=_axis(axis), keepdims=keepdims, **kwargs),
        dtype,
    )


def mean(x, axis=None, keepdims=False):
    return _float_reduce(np.mean, x, axis, keepdims)


def var(x, axis=None, keepdims=False):
    return _float_reduce(np.var, x, axis, keepdims)


def std(x, axis=None, keepdims=False):
    return _float_reduce(np.std, x, axis, keepdims)


def median(x, axis=None, keepdims=False):
    return _float_reduce(np.median, x, axis, keepdims)


def quantile(x, q, axis=None, method="linear", keepdims=False):
    q = np.asarray(convert_to_tensor(q), dtype=np.float64)
    if np.any((q < 0) | (q > 1)):
        raise ValueError(f"quantiles must lie in [0, 1], received {q}.")
    dtype = rules.result(x, floating=True)
    work = rules.as_dtype(x, "float64" if dtype == "float64" else "float32")
    return rules.finish(
        np.quantile(work, q, axis=_axis(axis), method=method, keepdims=keepdims), dtype
    )


def _extreme(fn, x, axis, keepdims, initial):
    x = convert_to_tensor(x)
    extra = {} if initial is None else {"initial": initial}
    return rules.finish(fn(x, axis=_axis(axis), keepdims=keepdims, **extra), x.dtype)


def max(x, axis=None, keepdims=False, initial=None):
    return _extreme(np.max, x, axis, keepdims, initial)


def min(x, axis=None, keepdims=False, initial=None):
    return _extreme(np.min, x, axis, keepdims, initial)


def amax(x, axis=None, keepdims=False):
    return _extreme(np.max, x, axis, keepdims, None)


def amin(x, axis=None, keepdims=False):
    return _extreme(np.min, x, axis, keepdims, None)


def all(x, axis=None, keepdims=False):
    return np.asarray(np.all(convert_to_tensor(x), axis=_axis(axis), keepdims=keepdims))


def any(x, axis=None, keepdims=False):
    return np.asarray(np.any(convert_to_tensor(x), axis=_axis(axis), keepdims=keepdims))


def argmax(x, axis=None, keepdims=False):
    return rules.int32(np.argmax(convert_to_tensor(x), axis=axis, keepdims=keepdims))


def argmin(x, axis=None, keepdims=False):
    return rules.int32(np.argmin(convert_to_tensor(x), axis=axis, keepdims=keepdims))


def count_nonzero(x, axis=None):
    return rules.int32(np.count_nonzero(convert_to_tensor(x), axis=_axis(axis)))


def _cumulative(fn, x, axis, dtype):
    x = convert_to_tensor(x)
    dtype = dtype_rules.cumulative_dtype(x.dtype if dtype is None else dtype)
    return rules.finish(fn(rules.as_dtype(x, rules.work(dtype)), axis=axis), dtype)


def cumsum(x, axis=None, dtype=None):
    return _cumulative(np.cumsum, x, axis, dtype)


def cumprod(x, axis=None, dtype=None):
    return _cumulative(np.cumprod, x, axis, dtype)


def trace(x, offset=0, axis1=0, axis2=1):
    x = convert_to_tensor(x)
    dtype = dtype_rules.accumulation_dtype(x.dtype)
    return rules.finish(
        np.trace(x, offset=offset, axis1=axis1, axis2=axis2, dtype=rules.work(dtype)), dtype
    )


# -- linear algebra ------------------------------------------------------------------------------
def _matmul_dtype(operands):
    """int8 products accumulate in int32 (as in Keras); other operands promote."""
    if builtins.all(rules.kind(x) == np.dtype("int8") for x in operands):
        return "int32"
    return rules.result(*operands)


def matmul(x1, x2):
    dtype = _matmul_dtype((x1, x2))
    work = rules.work(dtype)
    x1, x2 = rules.as_dtype(x1, work), rules.as_dtype(x2, work)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("matmul operands must have at least one dimension.")
    return rules.finish(np.matmul(x1, x2), dtype)


def dot(x1, x2):
    return _elementwise(np.dot, x1, x2)


def tensordot(x1, x2, axes=2):
    return _elementwise(lambda a, b: np.tensordot(a, b, axes=axes), x1, x2)


def einsum(subscripts, *operands, **kwargs):
    dtype = _matmul_dtype(operands)
    work = rules.work(dtype)
    return rules.finish(
        np.einsum(subscripts, *(rules.as_dtype(x, work) for x in operands), **kwargs), dtype
    )


def slogdet(x):
    dtype = rules.result(x, floating=True)
    sign, logdet = np.linalg.slogdet(rules.as_dtype(x, rules.work(dtype)))
    return rules.finish(sign, dtype), rules.finish(logdet, dtype)


def correlate(x1, x2, mode="valid"):
    dtype = rules.result(x1, x2, floating=True)
    work = rules.work(dtype)
    x1, x2 = rules.as_dtype(x1, work), rules.as_dtype(x2, work)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"correlate needs 1-D inputs, received shapes {x1.shape} and {x2.shape}.")
    return rules.finish(np.correlate(x1, x2, mode=mode), dtype)


# -- creation ------------------------------------------------------------------------------------
def _shape_tuple(shape):
    return (int(shape),) if np.ndim(shape) == 0 else tuple(int(d) for d in shape)


def _creation_dtype(dtype):
    return dtypes.to_numpy(dtypes.standardize_dtype(dtype))


def zeros(shape, dtype=None):
    return np.zeros(_shape_tuple(shape), dtype=_creation_dtype(dtype))


def ones(shape, dtype=None):
    return np.ones(_shape_tuple(shape), dtype=_creation_dtype(dtype))


def full(shape, fill_value, dtype=None):
    dtype = _creation_dtype(dtype)
    return np.array(np.broadcast_to(rules.as_dtype(fill_value, dtype), _shape_tuple(shape)))


def _like_dtype(x, dtype):
    return convert_to_tensor(x).dtype if dtype is None else _creation_dtype(dtype)


def zeros_like(x, dtype=None):
    return np.zeros(np.shape(convert_to_tensor(x)), dtype=_like_dtype(x, dtype))


def ones_like(x, dtype=None):
    return np.ones(np.shape(convert_to_tensor(x)), dtype=_like_dtype(x, dtype))


def full_like(x, fill_value, dtype=None):
    dtype = _like_dtype(x, dtype)
    return np.array(
        np.broadcast_to(rules.as_dtype(fill_value, dtype), np.shape(convert_to_tensor(x)))
    )


def eye(N, M=None, k=0, dtype=None):
    return np.eye(int(N), None if M is None else int(M), k=int(k), dtype=_creation_dtype(dtype))


def _number(value):
    """A Python scalar, or the value of a 0-d tensor, as a Python number."""
    if dtypes.dtype_of_python_scalar(value) is not None:
        return value
    return np.asarray(convert_to_tensor(value)).item()


def arange(start, stop=None, step=None, dtype=None):
    step = 1 if step is None else step
    if dtype is None:
        dtype = rules.result(*(v for v in (start, stop, step) if v is not None))
    if stop is None:
        start, stop = 0, start
    values = [_number(v) for v in (start, stop, step)]
    return np.arange(*values, dtype=dtypes.to_numpy(dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    float_dtype = rules.result(start, stop, floating=True)
    dtype = float_dtype if dtype is None else dtypes.standardize_dtype(dtype)
    samples, step = np.linspace(
        rules.as_dtype(start, "float64"),
        rules.as_dtype(stop, "float64"),
        int(num),
        endpoint=endpoint,
        retstep=True,
        axis=axis,
    )
    if dtypes.is_int(dtype):
        samples = np.floor(samples)
    samples = rules.finish(samples, dtype)
    return (samples, rules.finish(step, float_dtype)) if retstep else samples


# -- shape and layout ----------------------------------------------------------------------------
def reshape(x, newshape):
    return np.reshape(convert_to_tensor(x), _shape_tuple(newshape))


def expand_dims(x, axis):
    return np.expand_dims(convert_to_tensor(x), _axis(axis))


def squeeze(x, axis=None):
    return np.squeeze(convert_to_tensor(x), axis=_axis(axis))


def transpose(x, axes=None):
    return np.transpose(convert_to_tensor(x), axes=None if axes is None else tuple(axes))


def broadcast_to(x, shape):
    return np.array(np.broadcast_to(convert_to_tensor(x), _shape_tuple(shape)))


def flip(x, axis=None):
    return np.flip(convert_to_tensor(x), axis=_axis(axis)).copy()


def roll(x, shift, axis=None):
    shift = shift if isinstance(shift, int) else tuple(np.asarray(shift).reshape(-1).tolist())
    return np.roll(convert_to_tensor(x), shift, axis=_axis(axis))


def tile(x, repeats):
    return np.tile(convert_to_tensor(x), np.asarray(convert_to_tensor(repeats)).tolist())


def repeat(x, repeats, axis=None):
    return np.repeat(convert_to_tensor(x), np.asarray(convert_to_tensor(repeats)), axis=axis)


def _promote_all(xs):
    """The arrays of `xs`, promoted to their shared dtype."""
    dtype = rules.result(*xs)
    return [rules.as_dtype(x, dtype) for x in xs]


def concatenate(xs, axis=0):
    return np.concatenate(_promote_all(list(xs)), axis=axis)


def stack(x, axis=0):
    return np.stack(_promote_all(list(x)), axis=axis)


def append(x1, x2, axis=None):
    x1, x2 = _promote_all([x1, x2])
    return np.append(x1, x2, axis=axis)


def _sections(indices_or_sections):
    if isinstance(indices_or_sections, int):
        return indices_or_sections
    return [int(i) for i in np.asarray(indices_or_sections).reshape(-1)]


def split(x, indices_or_sections, axis=0):
    return list(np.split(convert_to_tensor(x), _sections(indices_or_sections), axis=axis))


def array_split(x, indices_or_sections, axis=0):
    return list(np.array_split(convert_to_tensor(x), _sections(indices_or_sections), axis=axis))


def meshgrid(*x, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing must be 'xy' or 'ij', received {indexing!r}.")
    return [g.copy() for g in np.meshgrid(*(convert_to_tensor(v) for v in x), indexing=indexing)]


def diag(x, k=0):
    x = convert_to_tensor(x)
    if x.ndim not in (1, 2):
        raise ValueError(f"diag needs a 1-D or 2-D input, received rank {x.ndim}.")
    return np.diag(x, k=k)


def diagflat(x, k=0):
    return np.diagflat(convert_to_tensor(x), k=k)


def diagonal(x, offset=0, axis1=0, axis2=1):
    return np.diagonal(convert_to_tensor(x), offset=offset, axis1=axis1, axis2=axis2).copy()


def tril(x, k=0):
    return np.tril(convert_to_tensor(x), k=k)


def triu(x, k=0):
    return np.triu(convert_to_tensor(x), k=k)


def diff(a, n=1, axis=-1):
    return np.diff(convert_to_tensor(a), n=n, axis=axis)


def copy(x):
    return np.array(convert_to_tensor(x), copy=True)


def view(x, dtype=None):
    x = convert_to_tensor(x)
    return x.copy() if dtype is None else x.view(dtypes.to_numpy(dtype))


_PAD_MODES = (
    "constant",
    "edge",
    "linear_ramp",
    "maximum",
    "mean",
    "median",
    "minimum",
    "reflect",
    "symmetric",
    "wrap",
    "empty",
    "circular",
)


def pad(x, pad_width, mode="constant", constant_values=None):
    x = convert_to_tensor(x)
    if mode not in _PAD_MODES:
        raise ValueError(f"mode must be one of {_PAD_MODES}, received {mode!r}.")
    if constant_values is not None and mode != "constant":
        raise ValueError(f"constant_values is only allowed with mode='constant', not {mode!r}.")
    widths = np.asarray(convert_to_tensor(pad_width)).tolist()
    if mode in ("constant", "empty"):
        fill = 0 if constant_values is None else rules.as_dtype(constant_values, x.dtype)
        return np.pad(x, widths, mode="constant", constant_values=fill)
    return np.pad(x, widths, mode="wrap" if mode == "circular" else mode)


# -- indexing, sorting, searching ----------------------------------------------------------------
def _key_part(part):
    if isinstance(part, (builtins.slice, type(Ellipsis), type(None), int)):
        return part
    return convert_to_tensor(part)


def get_item(x, key):
    key = tuple(_key_part(k) for k in key) if isinstance(key, tuple) else _key_part(key)
    return np.array(convert_to_tensor(x)[key])


def take(x, indices, axis=None):
    return np.take(convert_to_tensor(x), convert_to_tensor(indices), axis=axis)


def take_along_axis(x, indices, axis=None):
    x, indices = convert_to_tensor(x), convert_to_tensor(indices)
    if axis is None:
        return np.take_along_axis(x.reshape(-1), indices.reshape(-1), axis=0)
    axis = errors.check_axis("take_along_axis", axis, x.ndim)
    if indices.ndim != x.ndim:
        raise ValueError(f"indices must have the rank of x ({x.ndim}), received {indices.ndim}.")
    x_shape, i_shape = list(x.shape), list(indices.shape)
    x_shape[axis] = i_shape[axis] = 1
    common = np.broadcast_shapes(tuple(x_shape), tuple(i_shape))
    x = np.broadcast_to(x, common[:axis] + (x.shape[axis],) + common[axis + 1 :])
    indices = np.broadcast_to(indices, common[:axis] + (indices.shape[axis],) + common[axis + 1 :])
    return np.take_along_axis(x, indices, axis=axis)


def where(condition, x1=None, x2=None):
    condition = convert_to_tensor(condition)
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError("where needs both x1 and x2, or neither.")
    dtype = rules.result(x1, x2)
    return np.where(condition, rules.as_dtype(x1, dtype), rules.as_dtype(x2, dtype))


def nonzero(x):
    return tuple(rules.int32(i) for i in np.nonzero(convert_to_tensor(x)))


def sort(x, axis=-1):
    return np.sort(convert_to_tensor(x), axis=axis, kind="stable")


def argsort(x, axis=-1):
    x = convert_to_tensor(x)
    if x.ndim == 0:
        return np.zeros((), np.int32)
    return rules.int32(np.argsort(x, axis=axis, kind="stable"))


def argpartition(x, kth, axis=-1):
    """A stable full argsort, which is a valid (and deterministic) argpartition."""
    x = convert_to_tensor(x)
    axis = errors.check_axis("argpartition", axis, x.ndim)
    if not -x.shape[axis] <= int(kth) < x.shape[axis]:
        raise ValueError(f"kth={kth} is out of bounds for an axis of size {x.shape[axis]}.")
    return rules.int32(np.argsort(x, axis=axis, kind="stable"))


def searchsorted(sorted_sequence, values, side="left"):
    sorted_sequence = convert_to_tensor(sorted_sequence)
    if sorted_sequence.ndim != 1:
        raise ValueError(f"sorted_sequence must be 1-D, received rank {sorted_sequence.ndim}.")
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', received {side!r}.")
    work = rules.work(rules.result(sorted_sequence, values))
    return rules.int32(
        np.searchsorted(
            rules.as_dtype(sorted_sequence, work), rules.as_dtype(values, work), side=side
        )
    )


def digitize(x, bins):
    work = rules.work(rules.result(x, bins))
    return rules.int32(np.digitize(rules.as_dtype(x, work), rules.as_dtype(bins, work)))


def unravel_index(indices, shape):
    indices = convert_to_tensor(indices)
    return tuple(
        rules.int32(i) for i in np.unravel_index(indices.astype(np.int64), _shape_tuple(shape))
    )


def _pad_to(values, size, fill):
    """`values` cut or padded (with `fill`) along axis 0 to length `size`."""
    if len(values) >= size:
        return values[:size]
    padding = np.full((size - len(values),) + values.shape[1:], fill, dtype=values.dtype)
    return np.concatenate([values, padding])


def unique(
    x,
    sorted=True,
    return_index=False,
    return_inverse=False,
    return_counts=False,
    axis=None,
    size=None,
    fill_value=None,
):
    x = convert_to_tensor(x)
    values, index, inverse, counts = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True, axis=axis
    )
    inverse = inverse.reshape(x.shape) if axis is None else inverse.reshape(-1)
    if size is not None:
        # As jax.numpy.unique: pad with `fill_value` (default: the smallest value) and its index.
        first_value, first_index = (values[0], index[0]) if len(values) else (0, 0)
        values = _pad_to(values, size, first_value if fill_value is None else fill_value)
        index, counts = _pad_to(index, size, first_index), _pad_to(counts, size, 0)
    extras = [
        rules.int32(v)
        for v, wanted in ((index, return_index), (inverse, return_inverse), (counts, return_counts))
        if wanted
    ]
    return (values, *extras) if extras else values


def bincount(x, weights=None, minlength=0, sparse=False):
    errors.check_dense("numpy", sparse)
    x = convert_to_tensor(x)
    if not dtypes.is_int(x.dtype) or x.ndim not in (1, 2):
        raise ValueError(
            f"bincount needs a 1-D or 2-D integer tensor, received {x.dtype} rank {x.ndim}."
        )
    if x.size and x.min() < 0:
        raise ValueError("bincount needs non-negative values.")
    length = builtins.max(int(x.max()) + 1 if x.size else 0, int(minlength))
    dtype = "int32" if weights is None else dtype_rules.accumulation_dtype(rules.name(weights))
    w = (
        np.ones(x.shape)
        if weights is None
        else np.broadcast_to(convert_to_tensor(weights), x.shape)
    )
    rows = [
        np.bincount(r, weights=wr.astype(np.float64), minlength=length)
        for r, wr in zip(x.reshape(-1, x.shape[-1]), w.reshape(-1, x.shape[-1]))
    ]
    counts = np.stack(rows) if x.ndim == 2 else rows[0]
    return rules.finish(counts, dtype)


def histogram(x, bins=10, range=None):
    x = convert_to_tensor(x)
    if x.ndim != 1:
        raise ValueError(f"histogram needs a 1-D input, received rank {x.ndim}.")
    if not isinstance(bins, int) or bins <= 0:
        raise ValueError(f"bins must be a positive int, received {bins!r}.")
    dtype = rules.result(x, floating=True)
    counts, edges = np.histogram(x.astype(np.float64), bins=bins, range=range)
    return rules.int32(counts), rules.finish(edges, dtype)


# -- vectorize -----------------------------------------------------------------------------------
def vectorize(pyfunc, *, excluded=None, signature=None):
    vectorized = np.vectorize(pyfunc, excluded=excluded or set(), signature=signature)

    def apply(*args, **kwargs):
        result = vectorized(*args, **kwargs)
        return (
            tuple(np.asarray(r) for r in result)
            if isinstance(result, tuple)
            else np.asarray(result)
        )

    return apply
