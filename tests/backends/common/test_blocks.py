"""The block `slice` / `slice_update` address, checked once for every backend."""

import pytest

from tripod.backends.common import blocks


def test_block_slices_take_the_block():
    assert blocks.block_slices([1, 0], [2, 3], (4, 3)) == (slice(1, 3), slice(0, 3))
    assert blocks.block_slices([], [], ()) == ()


@pytest.mark.parametrize(
    "starts, sizes, message",
    [
        ([0], [1, 1], "expected 2 start indices and sizes, received 1 and 2"),
        ([3, 0], [2, 1], r"the block \[3, 0\] \+ \[2, 1\] lies outside the shape \(4, 3\)"),
        ([-1, 0], [1, 1], "lies outside"),
        ([0, 0], [1, -1], "lies outside"),
    ],
)
def test_a_block_outside_the_shape_is_an_error(starts, sizes, message):
    with pytest.raises(ValueError, match=message):
        blocks.block_slices(starts, sizes, (4, 3))
