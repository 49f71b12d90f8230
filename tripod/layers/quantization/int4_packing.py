"""`pack_int4` / `unpack_int4`: two 4-bit values per byte along one axis, as Keras 3 stores them.

Of each pair of consecutive entries along the packed axis, the first goes to the byte's low
nibble and the second to its high nibble; an odd length gets one zero entry of padding, which
`unpack_int4` drops again given the original length. Packing runs on the host in NumPy (it
happens once, when a model is quantized); unpacking runs in `tripod.ops` in int32, so no backend
shifts an int8 past its range.
"""

import numpy as np

from tripod.backends import active, dtypes

ops = active()

_DTYPES = ("int8", "uint8")


def _check_dtype(dtype):
    """Reject a target dtype other than int8 / uint8 (the two byte types nibbles pack into)."""
    if dtype not in _DTYPES:
        raise ValueError(f"Expected dtype to be 'int8' or 'uint8', but got {dtype!r}.")


def pack_int4(arr, axis=0, dtype="int8"):
    """Pack 4-bit values (an `int8` tensor in [-8, 7], or `uint8` in [0, 15]) two to a byte.

    Along `axis`, entries `2k` and `2k + 1` share byte `k`: the first in the low nibble, the
    second in the high nibble; an odd length is padded with one zero first.

    Args:
        arr: an `int8` or `uint8` tensor (its dtype must be `dtype`) of 4-bit values.
        axis: the axis to pack along.
        dtype: `"int8"` or `"uint8"`, the dtype of `arr` and of the packed bytes.

    Returns:
        `(packed, packed_shape, orig_len)`: the packed tensor, its shape as a tuple, and the
        length of `axis` before padding (what `unpack_int4` needs).

    Raises:
        ValueError: `dtype` is neither `"int8"` nor `"uint8"`.
        TypeError: `arr` is not of dtype `dtype`.

    Examples:
        >>> arr = np.array([[-3, 7], [2, -8], [1, 0]], dtype="int8")
        >>> packed, packed_shape, orig_len = tripod.quantizers.pack_int4(arr)
        >>> tripod.ops.convert_to_numpy(packed).tolist(), packed_shape, orig_len
        ([[45, -121], [1, 0]], (2, 2), 3)
    """
    _check_dtype(dtype)
    if dtypes.standardize_dtype(arr.dtype) != dtype:
        raise TypeError(
            f"Expected {dtype} tensor for packing, got {dtypes.standardize_dtype(arr.dtype)}."
        )
    values = np.asarray(ops.convert_to_numpy(arr))
    axis = axis % values.ndim
    values = np.moveaxis(values, axis, 0).astype(np.int16)
    orig_len = values.shape[0]
    if orig_len % 2:
        values = np.concatenate([values, np.zeros_like(values[:1])], axis=0)
    nibbles = np.bitwise_and(values, 0x0F)
    packed = np.bitwise_or(nibbles[0::2], np.left_shift(nibbles[1::2], 4))
    # 0..255 as uint8, then reinterpreted as the byte type (128..255 wrap to -128..-1 in int8)
    packed = np.moveaxis(packed.astype(np.uint8).astype(dtype), 0, axis)
    return ops.convert_to_tensor(packed), tuple(packed.shape), orig_len


def _nibbles(packed, signed):
    """The (low, high) nibbles of int32 bytes `packed`, as [-8, 7] when `signed` else [0, 15]."""
    low = ops.bitwise_and(packed, 0x0F)
    high = ops.bitwise_and(ops.right_shift(packed, 4), 0x0F)
    if signed:  # 0..7 stay, 8..15 become -8..-1
        low = ops.subtract(ops.bitwise_xor(low, 8), 8)
        high = ops.subtract(ops.bitwise_xor(high, 8), 8)
    return low, high


def unpack_int4(packed, orig_len, axis=0, dtype="int8"):
    """Unpack what `pack_int4` packed: each byte back into its two 4-bit values along `axis`.

    Args:
        packed: an `int8` or `uint8` tensor of packed bytes.
        orig_len: the length of `axis` before packing (`pack_int4`'s third result): the padding
            entry an odd length got is dropped.
        axis: the axis that was packed.
        dtype: `"int8"` gives the values in [-8, 7] (the nibbles read as signed), `"uint8"` in
            [0, 15].

    Returns:
        A tensor of dtype `dtype`, `packed`'s shape with `axis` of length `orig_len`.

    Raises:
        ValueError: `dtype` is neither `"int8"` nor `"uint8"`.
        TypeError: `packed` is not an int8 or uint8 tensor.

    Examples:
        >>> packed = np.array([[45, -121], [1, 0]], dtype="int8")
        >>> tripod.ops.convert_to_numpy(tripod.quantizers.unpack_int4(packed, 3)).tolist()
        [[-3, 7], [2, -8], [1, 0]]
    """
    _check_dtype(dtype)
    source = dtypes.standardize_dtype(packed.dtype)
    if source not in _DTYPES:
        raise TypeError(f"Expected int8 or uint8 tensor for unpacking, got {source}.")
    packed = ops.convert_to_tensor(packed)
    axis = axis % len(packed.shape)
    front = ops.cast(ops.moveaxis(packed, axis, 0), "int32")
    low, high = _nibbles(front, signed=dtype == "int8")
    interleaved = ops.stack([ops.cast(low, dtype), ops.cast(high, dtype)], axis=1)
    unpacked = ops.reshape(interleaved, (-1, *front.shape[1:]))[:orig_len]
    return ops.moveaxis(unpacked, 0, axis)
