"""The argument checks of the loss ops in `common.losses`."""

import numpy as np
import pytest

from tripod.backends.common import losses


def test_check_same_shape():
    losses.check_same_shape(np.zeros((2, 3)), np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"same shape, received \(2, 3\) and \(3, 2\)"):
        losses.check_same_shape(np.zeros((2, 3)), np.zeros((3, 2)))


def test_sparse_target():
    output = np.zeros((2, 4, 5))
    target, axis = losses.sparse_target(np, np.zeros((2, 4, 1), "int32"), output, -1)
    assert target.shape == (2, 4) and axis == 2
    target, axis = losses.sparse_target(np, np.zeros((2, 5), "int32"), output, 1)
    assert target.shape == (2, 5) and axis == 1
    with pytest.raises(ValueError, match=r"target shape \(2, 3\) must equal output shape"):
        losses.sparse_target(np, np.zeros((2, 3), "int32"), output, -1)
    with pytest.raises(ValueError, match="out of bounds"):
        losses.sparse_target(np, np.zeros((2, 4), "int32"), output, 3)
