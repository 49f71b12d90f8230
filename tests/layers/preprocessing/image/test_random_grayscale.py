"""`RandomGrayscale`."""

import numpy as np

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_grayscale import RandomGrayscale

LUMA = np.array([0.2989, 0.5870, 0.1140], "float32")


def test_passes_the_shared_checks():
    checks.check_all(RandomGrayscale, {"factor": 0.5}, checks.images(batch=6))


def test_factor_one_turns_every_image_grey_in_all_channels():
    x = checks.images()
    out = checks.to_numpy(RandomGrayscale(factor=1.0, seed=1)(x, training=True))
    np.testing.assert_allclose(out, np.repeat(x @ LUMA[:, None], 3, axis=-1), rtol=1e-5, atol=1e-3)


def test_factor_zero_keeps_every_image_and_a_half_turns_some():
    x = checks.images(batch=32, height=2, width=2)
    np.testing.assert_array_equal(
        checks.to_numpy(RandomGrayscale(factor=0.0, seed=1)(x, training=True)), x
    )
    out = checks.to_numpy(RandomGrayscale(factor=0.5, seed=1)(x, training=True))
    grey = [np.allclose(o[..., 0], o[..., 1]) for o in out]
    kept = [np.array_equal(o, i) for o, i in zip(out, x)]
    assert all(g != k for g, k in zip(grey, kept)) and 0 < sum(grey) < 32
