"""NumPy-style ops written over a backend's other ops (aliases, stacking, windows, NaN stats)."""

import math

import numpy as np

from tripod.backends import config, dtypes
from tripod.backends.common.derived import helpers as c
from tripod.backends.common.derived import rearrange_pattern

__all__ = [
    "absolute",
    "allclose",
    "array",
    "average",
    "bartlett",
    "bitwise_not",
    "blackman",
    "conj",
    "conjugate",
    "corrcoef",
    "cross",
    "deg2rad",
    "divide_no_nan",
    "dsplit",
    "dstack",
    "empty",
    "empty_like",
    "fabs",
    "fliplr",
    "flipud",
    "geomspace",
    "hamming",
    "hanning",
    "heaviside",
    "hsplit",
    "hstack",
    "identity",
    "inner",
    "isneginf",
    "isposinf",
    "isreal",
    "kaiser",
    "kron",
    "left_shift",
    "logaddexp2",
    "logspace",
    "moveaxis",
    "nanargmax",
    "nanargmin",
    "nancumprod",
    "nancumsum",
    "nanmax",
    "nanmean",
    "nanmedian",
    "nanmin",
    "nanpercentile",
    "nanprod",
    "nanquantile",
    "nanstd",
    "nansum",
    "nanvar",
    "ndim",
    "outer",
    "percentile",
    "ptp",
    "rad2deg",
    "ravel",
    "rearrange",
    "right_shift",
    "rot90",
    "select",
    "sinc",
    "size",
    "swapaxes",
    "trapezoid",
    "tri",
    "true_divide",
    "vander",
    "vdot",
    "vsplit",
    "vstack",
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


def array(ops, x, dtype=None):
    return ops.convert_to_tensor(x, dtype=dtype)


def empty(ops, shape, dtype=None):
    return ops.zeros(shape, dtype=dtype)


def empty_like(ops, x, dtype=None):
    return ops.zeros_like(x, dtype=dtype)


def identity(ops, n, dtype=None):
    return ops.eye(n, dtype=dtype)


# -- shape ---------------------------------------------------------------------------------------
def ravel(ops, x):
    return ops.reshape(x, (-1,))


def size(ops, x):
    shape = c.shape(ops, x)
    if None in shape:
        return ops.sum(ops.ones_like(x, dtype="int32"))
    return math.prod(shape)


def ndim(ops, x):
    return c.rank(ops, x)


def _atleast(ops, x, rank):
    """`x` with size-1 axes added as `np.atleast_{rank}d` adds them (rank 1, 2 or 3)."""
    x = ops.convert_to_tensor(x)
    n = c.rank(ops, x)
    if n >= rank:
        return x
    if n == 0:
        return ops.reshape(x, (1,) * rank)
    if rank == 3 and n == 2:
        return ops.expand_dims(x, -1)
    x = ops.expand_dims(x, 0)
    return ops.expand_dims(x, -1) if rank == 3 else x


def hstack(ops, xs):
    xs = [_atleast(ops, x, 1) for x in xs]
    axis = 0 if xs and c.rank(ops, xs[0]) == 1 else 1
    return ops.concatenate(xs, axis=axis)


def vstack(ops, xs):
    return ops.concatenate([_atleast(ops, x, 2) for x in xs], axis=0)


def dstack(ops, xs):
    return ops.concatenate([_atleast(ops, x, 3) for x in xs], axis=2)


def _split_on(ops, name, x, indices_or_sections, axis, min_rank):
    """`split` of `x` on `axis`, for a rank of at least `min_rank`."""
    x = ops.convert_to_tensor(x)
    if c.rank(ops, x) < min_rank:
        raise ValueError(
            f"ops.{name}: needs a tensor of rank >= {min_rank}, got {c.shape(ops, x)}."
        )
    return ops.split(x, indices_or_sections, axis=axis)


def hsplit(ops, x, indices_or_sections):
    axis = 0 if c.rank(ops, x) == 1 else 1
    return _split_on(ops, "hsplit", x, indices_or_sections, axis, 1)


def vsplit(ops, x, indices_or_sections):
    return _split_on(ops, "vsplit", x, indices_or_sections, 0, 2)


def dsplit(ops, x, indices_or_sections):
    return _split_on(ops, "dsplit", x, indices_or_sections, 2, 3)


def fliplr(ops, x):
    if c.rank(ops, x) < 2:
        raise ValueError(f"ops.fliplr: needs a tensor of rank >= 2, got shape {c.shape(ops, x)}.")
    return ops.flip(x, axis=1)


def flipud(ops, x):
    if c.rank(ops, x) < 1:
        raise ValueError("ops.flipud: needs a tensor of rank >= 1, got a scalar.")
    return ops.flip(x, axis=0)


def rot90(ops, array, k=1, axes=(0, 1)):
    rank = c.rank(ops, array)
    if rank < 2:
        raise ValueError(
            f"ops.rot90: needs a tensor of rank >= 2, got shape {c.shape(ops, array)}."
        )
    if len(axes) != 2:
        raise ValueError(f"ops.rot90: axes must be two axes, received {axes!r}.")
    a0, a1 = (c.axis_of("rot90", a, rank) for a in axes)
    if a0 == a1:
        raise ValueError(f"ops.rot90: axes must be two different axes, received {axes!r}.")
    k = int(k) % 4
    if k == 0:
        return ops.convert_to_tensor(array)
    if k == 2:
        return ops.flip(ops.flip(array, axis=a0), axis=a1)
    perm = list(range(rank))
    perm[a0], perm[a1] = a1, a0
    if k == 1:
        return ops.transpose(ops.flip(array, axis=a1), perm)
    return ops.flip(ops.transpose(array, perm), axis=a1)


def swapaxes(ops, x, axis1, axis2):
    rank = c.rank(ops, x)
    perm = list(range(rank))
    a1, a2 = c.axis_of("swapaxes", axis1, rank), c.axis_of("swapaxes", axis2, rank)
    perm[a1], perm[a2] = a2, a1
    return ops.transpose(x, perm)


def moveaxis(ops, x, source, destination):
    rank = c.rank(ops, x)
    source = [source] if isinstance(source, int) else list(source)
    destination = [destination] if isinstance(destination, int) else list(destination)
    if len(source) != len(destination):
        raise ValueError(
            f"ops.moveaxis: source {source} and destination {destination} differ in length."
        )
    source = [c.axis_of("moveaxis", a, rank) for a in source]
    destination = [c.axis_of("moveaxis", a, rank) for a in destination]
    if len(set(source)) != len(source) or len(set(destination)) != len(destination):
        raise ValueError("ops.moveaxis: repeated axis in source or destination.")
    perm = [a for a in range(rank) if a not in source]
    for dest, src in sorted(zip(destination, source)):
        perm.insert(dest, src)
    return ops.transpose(x, perm)


# -- statistics ----------------------------------------------------------------------------------
def _weights_like(ops, weights, x_shape, axis):
    """1-D (or per-`axis`) `weights` reshaped to broadcast against a tensor of `x_shape`."""
    w_shape = c.shape(ops, weights)
    if c.compatible(w_shape, x_shape):
        return weights
    if axis is None:
        raise ValueError(
            f"ops.average: weights of shape {w_shape} differ from x's {tuple(x_shape)}; "
            "pass `axis` for 1-D weights."
        )
    given = [axis] if isinstance(axis, int) else list(axis)
    axes = [c.axis_of("average", a, len(x_shape)) for a in given]
    if not c.compatible(w_shape, [x_shape[a] for a in axes]):
        raise ValueError(
            f"ops.average: weights of shape {w_shape} do not match the axes {axis} of x, "
            f"shape {tuple(x_shape)}."
        )
    order = sorted(range(len(axes)), key=lambda i: axes[i])
    shape = [1] * len(x_shape)
    for i in order:
        shape[axes[i]] = w_shape[i]
    return ops.reshape(ops.transpose(weights, order), c.static_shape(shape))


def average(ops, x, axis=None, weights=None):
    if weights is None:
        return ops.mean(x, axis=axis)
    x, weights = c.promote(ops, x, weights, floating=True)
    weights = _weights_like(ops, weights, c.shape(ops, x), axis)
    total = ops.sum(ops.multiply(x, weights), axis=axis)
    return ops.divide(total, ops.sum(ops.multiply(ops.ones_like(x), weights), axis=axis))


def ptp(ops, x, axis=None, keepdims=False):
    return ops.subtract(
        ops.max(x, axis=axis, keepdims=keepdims), ops.min(x, axis=axis, keepdims=keepdims)
    )


def trapezoid(ops, y, x=None, dx=1.0, axis=-1):
    y = c.to_float(ops, y)
    rank = c.rank(ops, y)
    axis = c.axis_of("trapezoid", axis, rank)
    pair_sum = ops.add(c.slice_axis(ops, y, 1, None, axis), c.slice_axis(ops, y, 0, -1, axis))
    if x is None:
        spacing = dx
    else:
        x = c.to_float(ops, x)
        if c.rank(ops, x) == 1:
            spacing = c.along(ops, ops.diff(x), axis, rank)
        else:
            spacing = ops.diff(x, axis=axis)
    return ops.sum(ops.multiply(ops.multiply(pair_sum, spacing), 0.5), axis=axis)


def vander(ops, x, N=None, increasing=False):
    x = ops.convert_to_tensor(x)
    if c.rank(ops, x) != 1:
        raise ValueError(f"ops.vander: x must be 1-D, got shape {c.shape(ops, x)}.")
    columns = c.shape(ops, x)[0] if N is None else int(N)
    dtype = c.dtype_of(ops, x)
    work = "int32" if dtype == "bool" else dtype
    powers = np.arange(columns) if increasing else np.arange(columns - 1, -1, -1)
    result = ops.power(
        ops.expand_dims(ops.cast(x, work), -1), ops.convert_to_tensor(powers, dtype=work)
    )
    return ops.cast(result, dtype)


def corrcoef(ops, x):
    x = c.to_float(ops, x)
    rank = c.rank(ops, x)
    if rank not in (1, 2):
        raise ValueError(f"ops.corrcoef: x must be 1-D or 2-D, got shape {c.shape(ops, x)}.")
    rows = x if rank == 2 else ops.expand_dims(x, 0)
    centered = ops.subtract(rows, ops.mean(rows, axis=1, keepdims=True))
    cov = ops.matmul(centered, ops.transpose(ops.conj(centered)))
    scale = ops.sqrt(ops.real(ops.diagonal(cov)))
    corr = ops.divide(ops.divide(cov, ops.expand_dims(scale, 1)), ops.expand_dims(scale, 0))
    if not dtypes.is_complex(c.dtype_of(ops, corr)):
        corr = ops.clip(corr, -1.0, 1.0)
    return corr if rank == 2 else ops.reshape(corr, ())


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


def allclose(ops, x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    return ops.all(ops.isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan))


# -- products ------------------------------------------------------------------------------------
def inner(ops, x1, x2):
    x1, x2 = ops.convert_to_tensor(x1), ops.convert_to_tensor(x2)
    r1, r2 = c.rank(ops, x1), c.rank(ops, x2)
    if r1 == 0 or r2 == 0:
        return ops.multiply(x1, x2)
    n1, n2 = c.shape(ops, x1)[-1], c.shape(ops, x2)[-1]
    if None not in (n1, n2) and n1 != n2:
        raise ValueError(f"ops.inner: last axes differ: {c.shape(ops, x1)} and {c.shape(ops, x2)}.")
    return ops.tensordot(x1, x2, axes=([r1 - 1], [r2 - 1]))


def vdot(ops, x1, x2):
    return ops.dot(ops.ravel(ops.conj(x1)), ops.ravel(x2))


def outer(ops, x1, x2):
    return ops.multiply(ops.expand_dims(ops.ravel(x1), 1), ops.expand_dims(ops.ravel(x2), 0))


def kron(ops, x1, x2):
    x1, x2 = ops.convert_to_tensor(x1), ops.convert_to_tensor(x2)
    rank = max(c.rank(ops, x1), c.rank(ops, x2))
    s1 = (1,) * (rank - c.rank(ops, x1)) + c.shape(ops, x1)
    s2 = (1,) * (rank - c.rank(ops, x2)) + c.shape(ops, x2)
    a = ops.reshape(x1, c.static_shape([d for n in s1 for d in (n, 1)]))
    b = ops.reshape(x2, c.static_shape([d for n in s2 for d in (1, n)]))
    sizes = [None if None in (p, q) else p * q for p, q in zip(s1, s2)]
    return ops.reshape(ops.multiply(a, b), c.static_shape(sizes))


def _product(ops, p, q):
    """`p * q` where None stands for a zero component."""
    return None if p is None or q is None else ops.multiply(p, q)


def _difference(ops, p, q):
    """`p - q` where None stands for a zero term."""
    if q is None:
        return p
    return ops.negative(q) if p is None else ops.subtract(p, q)


def cross(ops, x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    if axis is not None:
        axisa = axisb = axisc = axis
    x1, x2 = c.promote(ops, x1, x2)
    a = ops.moveaxis(x1, axisa, -1)
    b = ops.moveaxis(x2, axisb, -1)
    na, nb = c.shape(ops, a)[-1], c.shape(ops, b)[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError(f"ops.cross: vectors must have 2 or 3 components, got {na} and {nb}.")
    a_parts = ops.unstack(a, axis=-1) + [None] * (3 - na)
    b_parts = ops.unstack(b, axis=-1) + [None] * (3 - nb)
    (a0, a1, a2), (b0, b1, b2) = a_parts, b_parts
    z = ops.subtract(ops.multiply(a0, b1), ops.multiply(a1, b0))
    if na == 2 and nb == 2:
        return z
    x = _difference(ops, _product(ops, a1, b2), _product(ops, a2, b1))
    y = _difference(ops, _product(ops, a2, b0), _product(ops, a0, b2))
    result = ops.stack([x, y, z], axis=-1)
    return ops.moveaxis(result, -1, axisc)


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


# -- constructors --------------------------------------------------------------------------------
def tri(ops, N, M=None, k=0, dtype=None):
    M = N if M is None else M
    rows = ops.expand_dims(ops.arange(N, dtype="int32"), 1)
    cols = ops.expand_dims(ops.arange(M, dtype="int32"), 0)
    return ops.cast(ops.greater_equal(ops.add(rows, k), cols), dtype or config.floatx())


def _fix_ends(ops, values, first, last, num, axis):
    """`values` with its first (and, unless `last` is None, last) entry on `axis` set exactly."""
    rank = c.rank(ops, values)
    position = c.along(ops, ops.arange(num, dtype="int32"), axis, rank)
    values = ops.where(ops.equal(position, 0), ops.expand_dims(first, axis), values)
    if last is None:
        return values
    return ops.where(ops.equal(position, num - 1), ops.expand_dims(last, axis), values)


def geomspace(ops, start, stop, num=50, endpoint=True, dtype=None, axis=0):
    start, stop = c.promote(ops, start, stop, floating=True)
    shape = np.broadcast_shapes(c.shape(ops, start), c.shape(ops, stop))
    start, stop = ops.broadcast_to(start, shape), ops.broadcast_to(stop, shape)
    axis = c.axis_of("geomspace", axis, len(shape) + 1)
    logs = ops.linspace(
        ops.log(ops.abs(start)), ops.log(ops.abs(stop)), num, endpoint=endpoint, axis=axis
    )
    values = ops.multiply(ops.exp(logs), ops.expand_dims(ops.sign(start), axis))
    values = _fix_ends(ops, values, start, stop if endpoint and num > 1 else None, int(num), axis)
    return values if dtype is None else ops.cast(values, dtype)


def logspace(ops, start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    start, stop = c.promote(ops, start, stop, floating=True)
    exponents = ops.linspace(start, stop, num, endpoint=endpoint, axis=axis)
    values = ops.power(ops.cast(base, c.dtype_of(ops, exponents)), exponents)
    return values if dtype is None else ops.cast(values, dtype)


# -- windows (constants of a static length) ------------------------------------------------------
def _window(ops, x, name, formula):
    """The window of `x` points whose value at n = 0..x-1 (x > 1) is `formula(n, x - 1)`."""
    points = c.static_int(ops, x, name)
    if points <= 1:
        values = np.ones(max(points, 0))
    else:
        values = formula(np.arange(points, dtype=np.float64), points - 1.0)
    return ops.convert_to_tensor(values, dtype=config.floatx())


def bartlett(ops, x):
    return _window(ops, x, "bartlett", lambda n, m: 1.0 - np.abs(2.0 * n / m - 1.0))


def blackman(ops, x):
    return _window(
        ops,
        x,
        "blackman",
        lambda n, m: 0.42 - 0.5 * np.cos(2.0 * np.pi * n / m) + 0.08 * np.cos(4.0 * np.pi * n / m),
    )


def hamming(ops, x):
    return _window(ops, x, "hamming", lambda n, m: 0.54 - 0.46 * np.cos(2.0 * np.pi * n / m))


def hanning(ops, x):
    return _window(ops, x, "hanning", lambda n, m: 0.5 - 0.5 * np.cos(2.0 * np.pi * n / m))


def kaiser(ops, x, beta):
    radius = _window(ops, x, "kaiser", lambda n, m: np.sqrt(1.0 - (2.0 * n / m - 1.0) ** 2))
    beta = ops.cast(beta, config.floatx())
    return ops.divide(ops.i0(ops.multiply(radius, beta)), ops.i0(beta))


# -- NaN-ignoring reductions (non-float tensors hold no NaN: they use the plain op) ---------------
def _nan_filled(ops, x, fill):
    """`x` as a tensor with its NaNs replaced by `fill` (a non-float tensor holds none)."""
    x = ops.convert_to_tensor(x)
    return ops.where(ops.isnan(x), fill, x) if c.is_float(ops, x) else x


def _count(ops, x, axis, keepdims):
    """The number of non-NaN entries of float `x` over `axis`, as int32."""
    present = ops.cast(ops.logical_not(ops.isnan(x)), "int32")
    return ops.sum(present, axis=axis, keepdims=keepdims)


def nansum(ops, x, axis=None, keepdims=False):
    return ops.sum(_nan_filled(ops, x, 0.0), axis=axis, keepdims=keepdims)


def nanprod(ops, x, axis=None, keepdims=False):
    return ops.prod(_nan_filled(ops, x, 1.0), axis=axis, keepdims=keepdims)


def nanmean(ops, x, axis=None, keepdims=False):
    x = ops.convert_to_tensor(x)
    if not c.is_float(ops, x):
        return ops.mean(x, axis=axis, keepdims=keepdims)
    total = ops.sum(_nan_filled(ops, x, 0.0), axis=axis, keepdims=keepdims)
    return ops.divide(total, _count(ops, x, axis, keepdims))


def nanvar(ops, x, axis=None, keepdims=False):
    x = ops.convert_to_tensor(x)
    if not c.is_float(ops, x):
        return ops.var(x, axis=axis, keepdims=keepdims)
    deviation = ops.subtract(x, ops.nanmean(x, axis=axis, keepdims=True))
    squares = _nan_filled(ops, ops.square(deviation), 0.0)
    return ops.divide(
        ops.sum(squares, axis=axis, keepdims=keepdims), _count(ops, x, axis, keepdims)
    )


def nanstd(ops, x, axis=None, keepdims=False):
    x = ops.convert_to_tensor(x)
    if not c.is_float(ops, x):
        return ops.std(x, axis=axis, keepdims=keepdims)
    return ops.sqrt(ops.nanvar(x, axis=axis, keepdims=keepdims))


def _nan_ignoring(ops, x, axis, keepdims, reduce, fill, all_nan):
    """`reduce` over `axis` ignoring NaNs (filled with `fill`); `all_nan` for all-NaN slices."""
    x = ops.convert_to_tensor(x)
    if not c.is_float(ops, x):
        return reduce(x, axis=axis, keepdims=keepdims)
    result = reduce(_nan_filled(ops, x, fill), axis=axis, keepdims=keepdims)
    return ops.where(ops.all(ops.isnan(x), axis=axis, keepdims=keepdims), all_nan, result)


def nanmax(ops, x, axis=None, keepdims=False):
    return _nan_ignoring(ops, x, axis, keepdims, ops.max, -math.inf, math.nan)


def nanmin(ops, x, axis=None, keepdims=False):
    return _nan_ignoring(ops, x, axis, keepdims, ops.min, math.inf, math.nan)


def nanargmax(ops, x, axis=None, keepdims=False):
    return _nan_ignoring(ops, x, axis, keepdims, ops.argmax, -math.inf, -1)


def nanargmin(ops, x, axis=None, keepdims=False):
    return _nan_ignoring(ops, x, axis, keepdims, ops.argmin, math.inf, -1)


def nancumsum(ops, x, axis=None, dtype=None):
    return ops.cumsum(_nan_filled(ops, x, 0.0), axis=axis, dtype=dtype)


def nancumprod(ops, x, axis=None, dtype=None):
    return ops.cumprod(_nan_filled(ops, x, 1.0), axis=axis, dtype=dtype)


# -- NaN-ignoring quantiles ----------------------------------------------------------------------
_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def _sorted_rows(ops, x, axes):
    """Float `x` with `axes` moved last and flattened, NaNs (as +inf) sorted to the row ends.

    Also returns the number of non-NaN entries of each row, shaped (..., 1).
    """
    rank = c.rank(ops, x)
    kept = [a for a in range(rank) if a not in axes]
    rows = ops.transpose(x, kept + list(axes))
    shape = c.shape(ops, x)
    reduced = [shape[a] for a in axes]
    length = None if None in reduced else math.prod(reduced)
    rows = ops.reshape(rows, c.static_shape([shape[a] for a in kept] + [length]))
    count = _count(ops, rows, -1, True)
    return ops.sort(_nan_filled(ops, rows, math.inf), axis=-1), count


def _pick(ops, rows, positions):
    """Entries of each row of `rows` at float `positions` (..., Q), clipped into the row."""
    length = c.shape(ops, rows)[-1]
    return ops.take_along_axis(rows, ops.clip(ops.cast(positions, "int32"), 0, length - 1), axis=-1)


def _interpolate(ops, rows, position, method):
    """The `method` quantile of sorted `rows` at fractional `position` (..., Q)."""
    if method == "lower":
        return _pick(ops, rows, ops.floor(position))
    if method == "higher":
        return _pick(ops, rows, ops.ceil(position))
    if method == "nearest":
        return _pick(ops, rows, ops.round(position))
    low, high = _pick(ops, rows, ops.floor(position)), _pick(ops, rows, ops.ceil(position))
    if method == "midpoint":
        return ops.multiply(ops.add(low, high), 0.5)
    fraction = ops.subtract(position, ops.floor(position))
    return ops.add(low, ops.multiply(ops.subtract(high, low), fraction))


def _quantile_shape(shape, axes, keepdims, q_shape):
    """The result shape of quantiles `q_shape` (() or (Q,)) of a `shape` tensor over `axes`."""
    if keepdims:
        kept = [1 if a in axes else d for a, d in enumerate(shape)]
    else:
        kept = [d for a, d in enumerate(shape) if a not in axes]
    return c.static_shape(list(q_shape) + kept)


def nanquantile(ops, x, q, axis=None, method="linear", keepdims=False):
    x = ops.convert_to_tensor(x)
    if not c.is_float(ops, x):
        return ops.quantile(x, q, axis=axis, method=method, keepdims=keepdims)
    if method not in _METHODS:
        raise ValueError(f"ops.nanquantile: method must be one of {_METHODS}, received {method!r}.")
    dtype = c.dtype_of(ops, x)
    work = dtypes.result_type(dtype, "float32")
    q = ops.convert_to_tensor(q, dtype=work)
    if c.rank(ops, q) > 1:
        raise ValueError(
            f"ops.nanquantile: q must be a scalar or 1-D, got shape {c.shape(ops, q)}."
        )
    axes = c.axes_of("nanquantile", axis, c.rank(ops, x))
    rows, count = _sorted_rows(ops, ops.cast(x, work), axes)
    position = ops.multiply(ops.reshape(q, (-1,)), ops.cast(ops.subtract(count, 1), work))
    values = ops.where(ops.equal(count, 0), math.nan, _interpolate(ops, rows, position, method))
    shape = _quantile_shape(c.shape(ops, x), axes, keepdims, c.shape(ops, q))
    return ops.cast(ops.reshape(ops.moveaxis(values, -1, 0), shape), dtype)


def nanmedian(ops, x, axis=None, keepdims=False):
    x = ops.convert_to_tensor(x)
    if not c.is_float(ops, x):
        return ops.median(x, axis=axis, keepdims=keepdims)
    return ops.nanquantile(x, 0.5, axis=axis, keepdims=keepdims)


def _fraction(ops, q):
    """Percentages `q` as fractions; Python numbers are divided exactly (in float64) on the host."""
    if isinstance(q, (int, float, list, tuple)):
        return np.asarray(q, dtype=np.float64) / 100.0
    return ops.divide(q, 100.0)


def nanpercentile(ops, x, q, axis=None, method="linear", keepdims=False):
    return ops.nanquantile(x, _fraction(ops, q), axis=axis, method=method, keepdims=keepdims)


def percentile(ops, x, q, axis=None, method="linear", keepdims=False):
    return ops.quantile(x, _fraction(ops, q), axis=axis, method=method, keepdims=keepdims)


def rearrange(ops, tensor, pattern, **axes_lengths):
    return rearrange_pattern.rearrange(ops, tensor, pattern, axes_lengths)
