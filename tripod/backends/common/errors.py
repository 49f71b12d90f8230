"""One error style for every backend: a bad argument raises ValueError or TypeError naming the op."""

import functools

import numpy as np

from tripod.backends import dtypes

# Ops that run user functions: their errors belong to the user's code and pass through unchanged.
PASS_THROUGH = frozenset(
    {
        "cond",
        "switch",
        "while_loop",
        "fori_loop",
        "scan",
        "associative_scan",
        "map",
        "vectorized_map",
        "custom_gradient",
        "jvp",
        "vectorize",
    }
)

_GENERIC = (ValueError, TypeError, IndexError, KeyError, RuntimeError, np.exceptions.AxisError)


def _translated(name, error, native_errors):
    """The error to raise in place of `error`, or None to let it through as it is."""
    kind = type(error)
    message = str(error)
    prefix = f"ops.{name}:"
    if message.startswith(prefix):
        return None
    if kind is NotImplementedError and not isinstance(error, native_errors):
        # the framework has no kernel for these arguments; its words name the device where one
        # lacks it (XLA on a TPU: eig)
        return NotImplementedError(f"{prefix} not available for these arguments: {message}")
    if kind not in _GENERIC and not isinstance(error, native_errors):
        return None
    public = TypeError if kind is TypeError else ValueError
    return public(f"{prefix} {message}")


def translating(name, fn, native_errors=()):
    """Wrap backend op `fn` so that argument errors read the same on every backend."""
    if name in PASS_THROUGH:
        return fn

    @functools.wraps(fn)
    def op(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as error:
            public = _translated(name, error, native_errors)
            if public is None:
                raise
            raise public from error

    return op


def check_axis(name, axis, ndim):
    """`axis` made non-negative; a ValueError naming op `name` when it is out of range."""
    if not -ndim <= axis < max(ndim, 1):
        raise ValueError(f"ops.{name}: axis {axis} is out of bounds for a tensor of rank {ndim}.")
    return axis % ndim if ndim else 0


def check_scalar_axis(name, axis, ndim, allowed=()):
    """A ValueError naming op `name`, as NumPy's AxisError, for an int `axis` of a 0-d tensor
    (rank `ndim`) outside `allowed`: a 0-d tensor has no axis (argsort sees one element)."""
    if ndim == 0 and axis is not None and axis not in allowed:
        raise ValueError(
            f"ops.{name}: axis {axis} is out of bounds for a tensor of rank 0; "
            "axis=None treats it as 1-D."
        )


#: the modes of `ops.pad`: NumPy's, and "circular" (its "wrap")
PAD_MODES = (
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


def check_pad_args(mode, constant_values):
    """A ValueError for an `ops.pad` mode outside `PAD_MODES`, or a fill value with a mode other
    than "constant": every backend refuses both alike, before its framework sees them."""
    if mode not in PAD_MODES:
        raise ValueError(f"ops.pad: mode must be one of {PAD_MODES}, received {mode!r}.")
    if constant_values is not None and mode != "constant":
        raise ValueError(
            f"ops.pad: constant_values is only allowed with mode='constant', not {mode!r}."
        )


def check_dense(backend, sparse=False, ragged=False):
    """A ValueError when `sparse` or `ragged` asks backend `backend` for tensors it lacks."""
    for kind, wanted in (("sparse", sparse), ("ragged", ragged)):
        if wanted:
            raise ValueError(f"the {backend} backend has no {kind} tensors ({kind}=True).")


def check_int_power(dtype, base, exponent, any_negative):
    """A ValueError, as NumPy raises, for a power in signed integer `dtype` with a negative
    exponent, whose true value is a fraction that an integer result would silently truncate
    (after NumPy's OverflowError for a Python int outside `dtype`). `any_negative(exponent)`
    tells for a tensor exponent, or gives None where it cannot (a traced value, not checked)."""
    if dtypes.standardize_dtype(dtype) not in dtypes.INTS:
        return
    dtypes.check_python_ints(dtype, base, exponent)
    scalar = isinstance(exponent, (bool, int, float))
    if exponent < 0 if scalar else any_negative(exponent):
        raise ValueError("Integers to negative integer powers are not allowed.")
