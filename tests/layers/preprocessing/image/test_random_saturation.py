"""`RandomSaturation`."""

import numpy as np

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_saturation import RandomSaturation


def test_passes_the_shared_checks():
    checks.check_all(RandomSaturation, {"factor": 0.8}, checks.images())


def test_half_keeps_the_image_zero_makes_it_grey_and_one_saturates_it():
    x = checks.images()
    half = checks.to_numpy(RandomSaturation((0.5, 0.5), seed=1)(x, training=True))
    np.testing.assert_allclose(half, x, rtol=1e-4, atol=1e-2)
    grey = checks.to_numpy(RandomSaturation((0.0, 0.0), seed=1)(x, training=True))
    np.testing.assert_allclose(
        grey, np.repeat(x.max(axis=-1, keepdims=True), 3, axis=-1), rtol=1e-5, atol=1e-3
    )
    full = checks.to_numpy(RandomSaturation((1.0, 1.0), seed=1)(x, training=True))
    np.testing.assert_allclose(full.min(axis=-1), 0, atol=1e-3)
    np.testing.assert_allclose(full.max(axis=-1), x.max(axis=-1), rtol=1e-5, atol=1e-3)


def test_a_number_means_zero_to_that_number():
    assert RandomSaturation(0.3).factor == (0, 0.3)
