"""Random numbers that are the same on every backend: a counter-based hash written over ops.

Augmentation layers draw their parameters here, from a key (`DataLayer.random_key()`), so the
same seed gives the same augmentation on jax, torch, tensorflow and numpy, inside compiled steps
and `tf.data` maps alike. Every function takes the backend `ops` to compute with first.

The bits come from Wellons's "lowbias32" integer hash, computed in int32 (multiplication wraps
the same way on every backend); a uniform float keeps the top 24 bits, so it is exact in float32.
"""

import math

# Constants stay Python ints (all within int32): each op takes them as weak scalars of its int32
# operand's dtype, so no tensor is built for them per draw.
_MULTIPLIER_1 = 0x7FEB352D
_MULTIPLIER_2 = 0x846CA68B - 2**32  # as a signed int32
_GOLDEN = 0x9E3779B9 - 2**32


def _shift_right(ops, x, bits):
    """Logical right shift of int32 `x` (an arithmetic shift, then the sign bits masked off)."""
    return ops.bitwise_and(ops.right_shift(x, bits), (1 << (32 - bits)) - 1)


def _hash(ops, x):
    x = ops.bitwise_xor(x, _shift_right(ops, x, 16))
    x = ops.multiply(x, _MULTIPLIER_1)
    x = ops.bitwise_xor(x, _shift_right(ops, x, 15))
    x = ops.multiply(x, _MULTIPLIER_2)
    return ops.bitwise_xor(x, _shift_right(ops, x, 16))


def _count(shape):
    """How many values `shape` holds: an int, or a scalar tensor when a size is only known at
    run time."""
    total = 1
    for size in shape:
        total = total * size
    return total


def random_bits(ops, key, shape):
    """int32 tensor of `shape` with 32 random bits in each entry, from `key` (two uint32 words)."""
    first, second = ops.unstack(ops.cast(key, "int32"))
    stream = _hash(ops, ops.bitwise_xor(first, _hash(ops, ops.add(second, _GOLDEN))))
    counter = ops.arange(_count(shape), dtype="int32")
    bits = _hash(ops, ops.add(ops.multiply(counter, _GOLDEN), stream))
    return ops.reshape(bits, shape)


def _steps(ops, key, shape):
    """int32 tensor of `shape` with integers uniform in [0, 2**24): the top 24 random bits."""
    return _shift_right(ops, random_bits(ops, key, shape), 8)


def _spread(ops, steps, minval, maxval, dtype):
    """`minval + steps / 2**24 * (maxval - minval)` in `dtype`: steps of 2**-24 of the range."""
    unit = ops.multiply(ops.cast(steps, "float32"), 1.0 / (1 << 24))
    value = ops.add(ops.multiply(unit, ops.subtract(maxval, minval)), minval)
    return ops.cast(value, dtype)


def uniform(ops, key, shape, minval=0.0, maxval=1.0, dtype="float32"):
    """Floats uniform in [minval, maxval) (minval/maxval may be tensors that broadcast to shape)."""
    return _spread(ops, _steps(ops, key, shape), minval, maxval, dtype)


def uniform_above(ops, key, shape, minval=0.0, maxval=1.0, dtype="float32"):
    """Floats uniform in (minval, maxval]: `uniform`'s draw one step up, so that a bound that
    must not be drawn (a zoom of 0) never is."""
    return _spread(ops, ops.add(_steps(ops, key, shape), 1), minval, maxval, dtype)


def randint(ops, key, shape, minval, maxval, dtype="int32"):
    """Integers uniform in [minval, maxval)."""
    value = ops.floor(uniform(ops, key, shape, minval, maxval))
    return ops.cast(ops.minimum(value, ops.subtract(ops.cast(maxval, "float32"), 1.0)), dtype)


def normal(ops, key, shape, mean=0.0, stddev=1.0, dtype="float32"):
    """Normal floats (Box-Muller over two uniform draws)."""
    first, second = ops.unstack(uniform(ops, key, (2,) + tuple(shape)))
    radius = ops.sqrt(ops.multiply(-2.0, ops.log(ops.subtract(1.0, first))))
    value = ops.multiply(radius, ops.cos(ops.multiply(2.0 * math.pi, second)))
    return ops.cast(ops.add(ops.multiply(value, stddev), mean), dtype)


def bernoulli(ops, key, shape, rate):
    """Booleans that are True with probability `rate`."""
    return ops.less(uniform(ops, key, shape), rate)
