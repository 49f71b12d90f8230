"""`RandomColorDegeneration`."""

import numpy as np

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_color_degeneration import RandomColorDegeneration

LUMA = np.array([0.2989, 0.5870, 0.1140], "float32")


def test_passes_the_shared_checks():
    checks.check_all(RandomColorDegeneration, {"factor": 0.7}, checks.images())


def test_blends_towards_the_grey_image_by_the_factor():
    x = checks.images()
    grey = x @ LUMA[:, None]
    for factor in (0.0, 0.25, 1.0):
        out = checks.to_numpy(RandomColorDegeneration((factor, factor), seed=1)(x, training=True))
        np.testing.assert_allclose(out, x + factor * (grey - x), rtol=1e-5, atol=1e-3)


def test_a_number_means_zero_to_that_number():
    assert RandomColorDegeneration(0.4).factor == (0, 0.4)
