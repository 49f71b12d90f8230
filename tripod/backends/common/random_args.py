"""Argument checks of the random ops, shared by the backends."""

from tripod.backends import dtypes


def float_dtype(dtype, name):
    """`dtype` standardized (None is floatx); a ValueError naming op `name` unless it is a float."""
    dtype = dtypes.standardize_dtype(dtype)
    if not dtypes.is_float(dtype):
        raise ValueError(f"{name} needs a float dtype, received {dtype!r}.")
    return dtype


def int_dtype(dtype, name):
    """`dtype` standardized; a ValueError naming op `name` unless it is an integer dtype."""
    dtype = dtypes.standardize_dtype(dtype)
    if not dtypes.is_int(dtype):
        raise ValueError(f"{name} needs an integer dtype, received {dtype!r}.")
    return dtype


def static_shape(shape):
    """A shape argument (an int, or a sequence of ints) as a tuple of ints."""
    return tuple(int(d) for d in shape) if isinstance(shape, (list, tuple)) else (int(shape),)


def dropout_rate(rate):
    """dropout's `rate` as a float; a ValueError unless it lies in [0, 1] (1 drops every entry,
    as in Keras 3)."""
    rate = float(rate)
    if not 0 <= rate <= 1:
        raise ValueError(f"rate must lie in [0, 1], received {rate}.")
    return rate


def dropout_args(rate, noise_shape, shape):
    """dropout's `rate` as a float in [0, 1] and its noise shape for inputs of static `shape`
    (`noise_shape` None means `shape`; a None dim in it takes the inputs' dim)."""
    rate = dropout_rate(rate)
    if noise_shape is None:
        noise_shape = shape
    return rate, tuple(d if n is None else int(n) for n, d in zip(noise_shape, shape))
