"""`AutoContrast`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tests.layers.preprocessing.image.deterministic import check_all_deterministic
from tripod.layers.preprocessing.image.auto_contrast import AutoContrast


def test_passes_the_shared_checks():
    check_all_deterministic(AutoContrast, {}, checks.images(low=40, high=200))


@pytest.mark.parametrize("value_range", [(0, 255), (0, 1), (-1, 1)])
def test_stretches_each_channel_of_each_image_to_the_range(value_range):
    low, high = value_range
    x = checks.images(low=low + 0.2 * (high - low), high=low + 0.7 * (high - low))
    out = checks.to_numpy(AutoContrast(value_range=value_range)(x))
    darkest, brightest = x.min(axis=(1, 2), keepdims=True), x.max(axis=(1, 2), keepdims=True)
    expected = (x - darkest) / (brightest - darkest) * (high - low) + low
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-4 * (high - low))


def test_keeps_constant_channels():
    x = checks.images()
    x[0, ..., 1] = 17.0
    out = checks.to_numpy(AutoContrast()(x))
    np.testing.assert_array_equal(out[0, ..., 1], x[0, ..., 1])
    assert out[0, ..., 0].min() == 0 and out[0, ..., 0].max() == 255
