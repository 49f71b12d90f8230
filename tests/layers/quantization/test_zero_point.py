"""`abs_max_quantize_grouped_with_zero_point` against a NumPy reference of Keras's formula and
hand-computed values, on the device path and the host (`to_numpy=True`) path."""

import math

import numpy as np
import pytest

from tripod import ops
from tripod.layers.quantization.zero_point import abs_max_quantize_grouped_with_zero_point

RNG = np.random.default_rng(6)


def _np(x):
    return np.asarray(ops.convert_to_numpy(x))


def _reference(x, block_size, qmin=-8, qmax=7, epsilon=1e-7):
    """Keras's formula in NumPy: per group of rows (zero-padded past one group) and column."""
    rows, cols = x.shape
    groups = math.ceil(rows / block_size)
    bits = int(math.log2(qmax - qmin + 1))
    padded = np.concatenate([x, np.zeros((groups * block_size - rows, cols), x.dtype)])
    blocks = padded.reshape(groups, block_size, cols)
    stats = x if groups == 1 else blocks
    low, high = stats.min(axis=-2), stats.max(axis=-2)
    low, high = np.where(low == high, low - 1, low), np.where(low == high, high + 1, high)
    scale = ((high - low + np.float32(epsilon)) / np.float32(2**bits - 1)).reshape(groups, cols)
    signed_min = -(2 ** (bits - 1))
    zero = np.clip(
        np.round(-low.reshape(groups, cols) / scale) + signed_min, signed_min, -signed_min - 1
    )
    levels = np.clip(np.round(blocks / scale[:, None]) + zero[:, None], qmin, qmax)
    return levels.reshape(-1, cols)[:rows].astype("int8"), scale, zero.astype("int8")


@pytest.mark.parametrize("to_numpy", [False, True])
@pytest.mark.parametrize("shape,block_size", [((8, 3), 4), ((7, 5), 3), ((3, 4), 8)])
def test_grouped_quantize_matches_the_reference(shape, block_size, to_numpy):
    x = RNG.normal(size=shape).astype("float32")
    quantized, scale, zero = abs_max_quantize_grouped_with_zero_point(
        x, block_size, to_numpy=to_numpy
    )
    expected_q, expected_scale, expected_zero = _reference(x, block_size)
    np.testing.assert_array_equal(_np(quantized), expected_q)
    np.testing.assert_allclose(_np(scale), expected_scale, rtol=1e-6)
    np.testing.assert_array_equal(_np(zero), expected_zero)
    dtypes = [str(_np(t).dtype) for t in (quantized, scale, zero)]
    assert dtypes == ["int8", "float32", "int8"]


@pytest.mark.parametrize("to_numpy", [False, True])
def test_grouped_quantize_hand_computed(to_numpy):
    # column 0: range [0, 3] -> scale 3/15 = 0.2, zero round(0 / 0.2) - 8 = -8
    # column 1: range [-1, 2] -> scale 0.2, zero round(1 / 0.2) - 8 = -3
    # column 2: constant -0.5, widened to [-1.5, 0.5] -> scale 2/15, zero round(11.25) - 8 = 3,
    #           and -0.5 -> round(-3.75) + 3 = -1
    x = np.array([[0.0, -1.0, -0.5], [1.0, 1.0, -0.5], [3.0, 2.0, -0.5]], dtype="float32")
    quantized, scale, zero = abs_max_quantize_grouped_with_zero_point(x, 4, to_numpy=to_numpy)
    assert _np(quantized).tolist() == [[-8, -8, -1], [-3, 2, -1], [7, 7, -1]]
    np.testing.assert_allclose(_np(scale), [[0.2, 0.2, 2 / 15]], rtol=1e-6)
    assert _np(zero).tolist() == [[-8, -3, 3]]


def test_grouped_quantize_dequantizes_close_to_the_inputs():
    x = RNG.normal(size=(16, 4)).astype("float32")
    quantized, scale, zero = abs_max_quantize_grouped_with_zero_point(x, 8)
    levels = _np(quantized).astype("float32").reshape(2, 8, 4) - _np(zero)[:, None]
    restored = (levels * _np(scale)[:, None]).reshape(16, 4)
    assert np.abs(restored - x).max() <= _np(scale).max() / 2 + 1e-6
