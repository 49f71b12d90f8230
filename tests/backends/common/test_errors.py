"""`common.errors` helpers for the backends' argument checks."""

import pytest

from tripod.backends.common import errors


def test_check_dense():
    errors.check_dense("numpy")
    errors.check_dense("numpy", sparse=False, ragged=None)
    with pytest.raises(ValueError, match=r"the jax backend has no sparse tensors \(sparse=True\)"):
        errors.check_dense("jax", sparse=True)
    with pytest.raises(ValueError, match=r"numpy backend has no ragged tensors \(ragged=True\)"):
        errors.check_dense("numpy", False, True)
