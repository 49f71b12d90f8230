"""Parity harness: run an op on the backend under test and on the numpy reference, compare."""

import functools

import numpy as np
import pytest

from tests import accelerator
from tripod.backends import config, dtypes, load

REFERENCE = load("numpy")
BACKEND = load(config.backend())
#: Why a parity comparison is skipped on the numpy run of the suite: it would compare the
#: reference with itself and could not fail.
SAME_AS_REFERENCE = "the backend under test is the numpy reference: nothing to compare it with"

_rng = np.random.default_rng(1234)


@functools.cache
def stored_dtype(name, backend=BACKEND):
    """The dtype `backend` holds dtype `name` in: `name` itself, or on jax without JAX's 64-bit
    mode the 32-bit counterpart of a 64-bit type (docs/differences.md)."""
    return backend.dtype(backend.convert_to_tensor(np.zeros(0), dtype=name))


def randn(*shape, dtype="float32"):
    """Fixed-seed normal samples of `shape` and `dtype`."""
    return _rng.standard_normal(shape).astype(dtype)


def uniform(*shape, low=0.0, high=1.0, dtype="float32"):
    """Fixed-seed uniform samples in [low, high)."""
    return _rng.uniform(low, high, shape).astype(dtype)


def randint(*shape, low=0, high=10, dtype="int32"):
    """Fixed-seed integers in [low, high)."""
    return _rng.integers(low, high, shape).astype(dtype)


def to_backend(value, backend=BACKEND):
    """NumPy arrays (also inside lists, tuples and dicts) as `backend` tensors."""
    if isinstance(value, np.ndarray):
        return backend.convert_to_tensor(value)
    if isinstance(value, (list, tuple)):
        return type(value)(to_backend(v, backend) for v in value)
    if isinstance(value, dict):
        return {k: to_backend(v, backend) for k, v in value.items()}
    return value


def to_numpy(value, backend=BACKEND):
    """A backend result (a tensor, or a list, tuple or dict of them) as NumPy values."""
    if isinstance(value, (list, tuple)):
        return type(value)(to_numpy(v, backend) for v in value)
    if isinstance(value, dict):
        return {k: to_numpy(v, backend) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return np.asarray(backend.convert_to_numpy(value))


def assert_same(
    actual, expected, atol=1e-5, rtol=1e-5, check_dtype=True, path="result", backend=BACKEND
):
    """Assert two NumPy structures match: structure, shapes, dtypes (as `backend`, which computed
    `actual`, holds them) and values."""
    if isinstance(expected, (list, tuple)):
        assert isinstance(actual, (list, tuple)), f"{path}: expected a sequence, got {type(actual)}"
        assert len(actual) == len(expected), f"{path}: length {len(actual)} != {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_same(a, e, atol, rtol, check_dtype, f"{path}[{i}]", backend)
        return
    if isinstance(expected, dict):
        assert sorted(actual) == sorted(expected), f"{path}: keys differ"
        for k in expected:
            assert_same(actual[k], expected[k], atol, rtol, check_dtype, f"{path}[{k!r}]", backend)
        return
    if (
        isinstance(expected, str) and expected in dtypes.ALLOWED
    ):  # a dtype name, as `backend` holds it
        expected = stored_dtype(expected, backend)
    if expected is None or isinstance(expected, (bool, int, float, str)):
        assert actual == expected, f"{path}: {actual!r} != {expected!r}"
        return
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, f"{path}: shape {actual.shape} != {expected.shape}"
    if check_dtype:
        a = dtypes.standardize_dtype(actual.dtype)
        e = stored_dtype(dtypes.standardize_dtype(expected.dtype), backend)
        assert a == e, f"{path}: dtype {a} != {e}"
    if expected.dtype.kind in "biu" or expected.dtype == bool:
        np.testing.assert_array_equal(actual, expected, err_msg=path)
    else:
        atol, rtol = accelerator.floor(atol), accelerator.floor(rtol)
        np.testing.assert_allclose(
            actual.astype(np.complex128 if expected.dtype.kind == "c" else np.float64),
            expected.astype(np.complex128 if expected.dtype.kind == "c" else np.float64),
            atol=atol,
            rtol=rtol,
            err_msg=path,
            equal_nan=True,
        )


def skip_on_the_reference():
    """Skip the calling test when the backend under test is the numpy reference itself."""
    if BACKEND.name == REFERENCE.name:
        pytest.skip(SAME_AS_REFERENCE)
