"""`pack_int4` / `unpack_int4`: Keras 3's nibble order (first value low, second high), checked
on hand-computed bytes and by round trips along every axis."""

import numpy as np
import pytest

from tripod import ops
from tripod.layers.quantization.int4_packing import pack_int4, unpack_int4

RNG = np.random.default_rng(4)


def _np(x):
    return np.asarray(ops.convert_to_numpy(x))


def test_pack_int4_along_axis_0_matches_hand_computed_bytes():
    # column 0: -3 -> 0b1101 low, 2 high: 13 + 2 * 16 = 45; 1 and the padding 0: 1
    # column 1: 7 low, -8 -> 0b1000 high: 7 + 8 * 16 = 135, read as int8: -121
    packed, shape, orig_len = pack_int4(np.array([[-3, 7], [2, -8], [1, 0]], dtype="int8"))
    assert _np(packed).tolist() == [[45, -121], [1, 0]]
    assert (shape, orig_len, str(_np(packed).dtype)) == ((2, 2), 3, "int8")


def test_pack_int4_along_axis_1_and_uint8():
    packed, shape, orig_len = pack_int4(np.array([[-3, 7, 2], [-8, 1, 0]], dtype="int8"), axis=1)
    assert _np(packed).tolist() == [[125, 2], [24, 0]]  # 13 + 7 * 16, 8 + 1 * 16
    assert (shape, orig_len) == ((2, 2), 3)
    packed, _, _ = pack_int4(np.array([[1, 15], [14, 0]], dtype="uint8"), dtype="uint8")
    assert _np(packed).tolist() == [[1 + 14 * 16, 15]] and str(_np(packed).dtype) == "uint8"


def test_unpack_int4_reads_nibbles_signed_or_unsigned():
    packed = np.array([0xF8, 0x7F], dtype="uint8")  # nibbles (8, 15) and (15, 7)
    assert _np(unpack_int4(packed, 4)).tolist() == [-8, -1, -1, 7]
    unsigned = unpack_int4(packed, 3, dtype="uint8")
    assert _np(unsigned).tolist() == [8, 15, 15] and str(_np(unsigned).dtype) == "uint8"


@pytest.mark.parametrize("shape,axis", [((5, 3), 0), ((4, 7), 1), ((3, 5, 2), -2), ((2, 3, 4), 2)])
def test_pack_then_unpack_gives_the_values_back(shape, axis):
    values = RNG.integers(-8, 8, size=shape).astype("int8")
    packed, packed_shape, orig_len = pack_int4(values, axis=axis)
    expected = list(shape)
    expected[axis] = (shape[axis] + 1) // 2
    assert packed_shape == tuple(expected) == tuple(_np(packed).shape)
    restored = unpack_int4(packed, orig_len, axis=axis)
    np.testing.assert_array_equal(_np(restored), values)
    assert str(_np(restored).dtype) == "int8"


def test_pack_and_unpack_reject_wrong_dtypes():
    with pytest.raises(ValueError, match="'int8' or 'uint8'"):
        pack_int4(np.zeros((2, 2), "int8"), dtype="int16")
    with pytest.raises(TypeError, match="Expected int8 tensor"):
        pack_int4(np.zeros((2, 2), "int32"))
    with pytest.raises(TypeError, match="int8 or uint8"):
        unpack_int4(np.zeros((2, 2), "int32"), 4)
