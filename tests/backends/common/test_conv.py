"""The argument handling of convolutions and pools in `common.conv`."""

import pytest

from tripod.backends.common import conv


def test_conv_args():
    assert conv.conv_args(4, 4, 2, "channels_first", (1, 2), "conv") == (
        "channels_first",
        (2, 2),
        (1, 2),
    )
    with pytest.raises(ValueError, match="conv: the kernel must have rank 4, received 3"):
        conv.conv_args(4, 3, 1, None, 1, "conv")
    with pytest.raises(ValueError, match="strides must be a positive int or 1 positive ints"):
        conv.conv_args(3, 3, (1, 1), None, 1, "conv")


def test_pool_window_strides_default_to_the_window():
    assert conv.pool_window(2, 3, None) == ((3, 3), (3, 3))
    assert conv.pool_window(1, (2,), 1) == ((2,), (1,))


def test_adaptive_args():
    assert conv.adaptive_args(5, (1, 2, 3), "channels_last") == ("channels_last", (1, 2, 3))
    with pytest.raises(ValueError, match="output_size"):
        conv.adaptive_args(4, (1, 2, 3), None)


def test_conv_transpose_paddings():
    each = [
        conv.conv_transpose_padding(3, 2, "same", 1, 1),
        conv.conv_transpose_padding(2, 1, "same", 0, 1),
    ]
    assert conv.conv_transpose_paddings((3, 2), (2, 1), "same", (1, 0), (1, 1)) == each
    assert conv.conv_transpose_paddings((3,), (2,), "valid", None, (1,)) == [
        conv.conv_transpose_padding(3, 2, "valid")
    ]
    for bad in ((1, 2, 3), -1):
        with pytest.raises(ValueError, match="output_padding must be 2 non-negative ints"):
            conv.conv_transpose_paddings((3, 3), (2, 2), "valid", bad, (1, 1))
