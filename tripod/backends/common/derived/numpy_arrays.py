"""NumPy-style array ops written over a backend's other ops (shape, products, constructors)."""

import math

import numpy as np

from tripod.backends import config
from tripod.backends.common.derived import helpers as c
from tripod.backends.common.derived import rearrange_pattern

__all__ = [
    "array",
    "bartlett",
    "blackman",
    "cross",
    "dsplit",
    "dstack",
    "empty",
    "empty_like",
    "fliplr",
    "flipud",
    "geomspace",
    "hamming",
    "hanning",
    "hsplit",
    "hstack",
    "identity",
    "inner",
    "kaiser",
    "kron",
    "logspace",
    "moveaxis",
    "ndim",
    "outer",
    "ravel",
    "rearrange",
    "rot90",
    "size",
    "swapaxes",
    "tri",
    "vander",
    "vdot",
    "vsplit",
    "vstack",
]


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


def rearrange(ops, tensor, pattern, **axes_lengths):
    return rearrange_pattern.rearrange(ops, tensor, pattern, axes_lengths)


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


# -- constructors --------------------------------------------------------------------------------
def array(ops, x, dtype=None):
    return ops.convert_to_tensor(x, dtype=dtype)


def empty(ops, shape, dtype=None):
    return ops.zeros(shape, dtype=dtype)


def empty_like(ops, x, dtype=None):
    return ops.zeros_like(x, dtype=dtype)


def identity(ops, n, dtype=None):
    return ops.eye(n, dtype=dtype)


def tri(ops, N, M=None, k=0, dtype=None):
    M = N if M is None else M
    rows = ops.expand_dims(ops.arange(N, dtype="int32"), 1)
    cols = ops.expand_dims(ops.arange(M, dtype="int32"), 0)
    return ops.cast(ops.greater_equal(ops.add(rows, k), cols), dtype or config.floatx())


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
