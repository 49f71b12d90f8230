"""Comparing tripod results with NumPy expectations."""

import numpy as np

from tests.backends.ops.harness import stored_dtype
from tripod.backends import active

ops = active()


def to_numpy(x):
    return np.asarray(ops.convert_to_numpy(x))


def assert_close(actual, expected, dtype="float32", rtol=1e-5, atol=1e-5, what=""):
    """`actual` (a backend tensor) has `expected`'s shape and values, and `dtype`."""
    dtype = stored_dtype(dtype)
    assert ops.dtype(actual) == dtype, f"{what}: dtype {ops.dtype(actual)}, expected {dtype}"
    actual, expected = to_numpy(actual), np.asarray(expected)
    assert actual.shape == expected.shape, (
        f"{what}: shape {actual.shape}, expected {expected.shape}"
    )
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, err_msg=what)


def native(x):
    """NumPy arrays as backend tensors (other values unchanged)."""
    return ops.convert_to_tensor(x) if isinstance(x, np.ndarray) else x
