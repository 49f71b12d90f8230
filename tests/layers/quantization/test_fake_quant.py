"""`fake_quant_with_min_max_vars`: nudged ranges and levels against hand-computed values, per
tensor and per channel, its straight-through gradient on the training backends, and its node
in a functional model."""

import numpy as np
import pytest

import tripod
from tripod import ops
from tripod.backends import config
from tripod.layers.quantization.fake_quant import fake_quant_with_min_max_vars

TRAINS = config.backend() != "numpy"
X = np.array([[-0.3, 0.05, 0.26, 0.9], [0.15, 0.45, 0.7, -0.1]], dtype="float32")
UPSTREAM = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], dtype="float32")


def _np(x):
    return np.array(ops.convert_to_numpy(x))


def test_per_tensor_levels_and_clamping():
    # 2 bits on [0, 0.6]: levels 0, 0.2, 0.4, 0.6; ties round up, outside values clamp
    got = _np(fake_quant_with_min_max_vars(X, 0.0, 0.6, num_bits=2))
    np.testing.assert_allclose(got, [[0.0, 0.0, 0.2, 0.6], [0.2, 0.4, 0.6, 0.0]], atol=1e-6)
    assert got.dtype == np.float32


def test_the_range_is_nudged_so_zero_is_a_level():
    # [-0.13, 0.47] at 2 bits: scale 0.2, zero point round(0.65) = 1 -> [-0.2, 0.4]
    x = np.array([-0.3, 0.05, 0.11, 0.45], dtype="float32")
    got = _np(fake_quant_with_min_max_vars(x, -0.13, 0.47, num_bits=2))
    np.testing.assert_allclose(got, [-0.2, 0.0, 0.2, 0.4], atol=1e-6)


def test_narrow_range_drops_the_lowest_level():
    # levels [1, 3] on [0, 0.6]: scale 0.3, zero point 1 -> 0.0, 0.3, 0.6
    x = np.array([0.1, 0.2, 0.5, 0.8], dtype="float32")
    got = _np(fake_quant_with_min_max_vars(x, 0.0, 0.6, num_bits=2, narrow_range=True))
    np.testing.assert_allclose(got, [0.0, 0.3, 0.6, 0.6], atol=1e-6)


@pytest.mark.parametrize("axis", [0, -1])
def test_per_channel_ranges_follow_the_axis(axis):
    channels = X.shape[axis]
    low = np.zeros(channels, "float32")
    high = np.full(channels, 0.6, "float32")
    high[0] = 1.5  # channel 0: 2 bits on [0, 1.5], levels 0, 0.5, 1, 1.5
    got = _np(fake_quant_with_min_max_vars(X, low, high, num_bits=2, axis=axis))
    expected = _np(fake_quant_with_min_max_vars(X, 0.0, 0.6, num_bits=2))
    first = np.take(X, 0, axis=axis)
    wide = np.clip(np.floor(np.clip(first, 0, 1.5) / 0.5 + 0.5) * 0.5, 0, 1.5)
    if axis == 0:
        expected[0] = wide
    else:
        expected[:, 0] = wide
    np.testing.assert_allclose(got, expected, atol=1e-6)


@pytest.mark.skipif(not TRAINS, reason="the numpy backend is inference-only")
def test_gradient_is_straight_through_per_tensor():
    x, low, high = (tripod.Variable(v) for v in (X, np.float32(0.0), np.float32(0.6)))
    upstream = ops.convert_to_tensor(UPSTREAM)

    def loss():
        y = fake_quant_with_min_max_vars(x.value, low.value, high.value, num_bits=2)
        return ops.sum(ops.multiply(y, upstream))

    _, (dx, dlow, dhigh) = tripod.value_and_grad(loss, [x, low, high])()
    np.testing.assert_array_equal(_np(dx), [[0, 2, 3, 0], [5, 6, 0, 0]])
    assert float(_np(dlow)) == 1 + 8  # -0.3 and -0.1 clamp to the minimum
    assert float(_np(dhigh)) == 4 + 7  # 0.9 and 0.7 clamp to the maximum


@pytest.mark.skipif(not TRAINS, reason="the numpy backend is inference-only")
def test_gradient_is_summed_per_channel():
    low = tripod.Variable(np.array([0.0, -0.4], "float32"))
    high = tripod.Variable(np.array([0.6, 0.8], "float32"))
    x = tripod.Variable(X)
    upstream = ops.convert_to_tensor(UPSTREAM)

    def loss():
        y = fake_quant_with_min_max_vars(x.value, low.value, high.value, num_bits=2, axis=0)
        return ops.sum(ops.multiply(y, upstream))

    _, (dx, dlow, dhigh) = tripod.value_and_grad(loss, [x, low, high])()
    np.testing.assert_array_equal(_np(dx), [[0, 2, 3, 0], [5, 6, 7, 8]])
    np.testing.assert_array_equal(_np(dlow), [1, 0])
    np.testing.assert_array_equal(_np(dhigh), [4, 0])


def test_symbolic_inputs_record_a_node():
    inputs = tripod.Input((4,))
    model = tripod.Model(inputs, fake_quant_with_min_max_vars(inputs, 0.0, 0.6, num_bits=2))
    np.testing.assert_allclose(
        model.predict(X, verbose=0), _np(fake_quant_with_min_max_vars(X, 0.0, 0.6, num_bits=2))
    )
