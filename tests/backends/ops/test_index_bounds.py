"""An index out of range is an error on every backend in eager use, as in NumPy: never a filled
or clamped value (jax's `take` fills with NaN unless checked)."""

import numpy as np
import pytest

from tripod import ops


@pytest.mark.parametrize(
    ("indices", "axis"), [(7, None), (-7, None), ([1, 9], None), ([3], 1), ([0, -4], 1)]
)
def test_take_with_an_index_out_of_range_raises(indices, axis):
    x = np.arange(6.0).reshape(2, 3)
    with pytest.raises((IndexError, ValueError), match="out of|not in"):
        ops.take(x, indices, axis=axis)


@pytest.mark.parametrize(
    ("indices", "axis", "expected"),
    [
        (5, None, 5.0),
        (-6, None, 0.0),
        ([0, 2], 1, [[0.0, 2.0], [3.0, 5.0]]),
        ([-3], 1, [[0.0], [3.0]]),
    ],
)
def test_take_at_the_edges_of_the_range(indices, axis, expected):
    x = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(ops.convert_to_numpy(ops.take(x, indices, axis=axis)), expected)


def test_take_with_no_indices_is_empty():
    out = ops.take(np.arange(3.0), np.array([], "int32"))
    assert tuple(ops.shape(out)) == (0,)
