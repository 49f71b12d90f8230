"""`RandomSharpness`."""

import numpy as np

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_sharpness import RandomSharpness


def smooth(x):
    """The 3x3 smoothing filter (centre 5/13, neighbours 1/13) over zero-padded channels_last x."""
    padded = np.pad(x, [(0, 0), (1, 1), (1, 1), (0, 0)])
    h, w = x.shape[1:3]
    total = sum(padded[:, i : i + h, j : j + w] for i in range(3) for j in range(3))
    return (total + 4 * x) / 13.0


def test_passes_the_shared_checks():
    checks.check_all(RandomSharpness, {"factor": 0.9}, checks.images())


def test_half_keeps_zero_smooths_and_one_sharpens():
    x = checks.images()
    keep = checks.to_numpy(RandomSharpness((0.5, 0.5), seed=1)(x, training=True))
    np.testing.assert_allclose(keep, x, rtol=1e-5, atol=1e-3)
    smoothed = checks.to_numpy(RandomSharpness((0.0, 0.0), seed=1)(x, training=True))
    np.testing.assert_allclose(smoothed, smooth(x), rtol=1e-5, atol=1e-3)
    sharp = checks.to_numpy(RandomSharpness((1.0, 1.0), seed=1)(x, training=True))
    np.testing.assert_allclose(sharp, np.clip(2 * x - smooth(x), 0, 255), rtol=1e-5, atol=1e-3)
