"""`RandomGaussianBlur`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_gaussian_blur import RandomGaussianBlur


def test_passes_the_shared_checks():
    checks.check_all(RandomGaussianBlur, {"sigma": (0.3, 0.9)}, checks.images())


def _taps(size, sigma):
    offsets = np.arange(size) - (size - 1) / 2
    taps = np.exp(-(offsets**2) / (2 * sigma**2))
    return taps / taps.sum()


def test_a_point_becomes_the_gaussian_kernel():
    x = np.zeros((1, 7, 7, 1), "float32")
    x[0, 3, 3, 0] = 100.0
    layer = RandomGaussianBlur(factor=(1.0, 1.0), kernel_size=(3, 5), sigma=(0.7, 0.7), seed=0)
    out = checks.to_numpy(layer(x, training=True))[0, :, :, 0]
    expected = 100.0 * np.outer(_taps(3, 0.7), _taps(5, 0.7))
    np.testing.assert_allclose(out[2:5, 1:6], expected, rtol=1e-4, atol=1e-4)
    assert np.count_nonzero(out > 1e-6) == 15


def test_factor_zero_never_blurs_and_output_stays_in_range():
    x = checks.images()
    np.testing.assert_allclose(
        checks.to_numpy(RandomGaussianBlur(factor=0.0, seed=1)(x, training=True)), x
    )
    out = checks.to_numpy(RandomGaussianBlur(value_range=(0, 100), seed=1)(x, training=True))
    assert out.min() >= 0.0 and out.max() <= 100.0


@pytest.mark.parametrize("kernel_size", [2, (3, 4), 0, "3"])
def test_rejects_an_even_or_bad_kernel_size(kernel_size):
    with pytest.raises(ValueError, match="RandomGaussianBlur 'g': kernel_size must be an odd"):
        RandomGaussianBlur(kernel_size=kernel_size, name="g")


def test_rejects_a_sigma_outside_zero_one():
    with pytest.raises(ValueError, match="sigma must be"):
        RandomGaussianBlur(sigma=2.0)
