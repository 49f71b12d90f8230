"""`Solarization`."""

import numpy as np

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.solarization import Solarization


def test_passes_the_shared_checks():
    checks.check_all(
        Solarization, {"addition_factor": 0.2, "threshold_factor": 0.5}, checks.images()
    )


def test_inverts_the_values_at_or_above_the_threshold():
    x = checks.images()
    out = checks.to_numpy(Solarization(threshold_factor=(0.5, 0.5), seed=1)(x, training=True))
    np.testing.assert_allclose(out, np.where(x < 127.5, x, 255 - x), rtol=1e-6)


def test_adds_before_thresholding_in_any_value_range():
    x = checks.images(low=0, high=1)
    layer = Solarization(
        addition_factor=(0.2, 0.2), threshold_factor=(0.8, 0.8), value_range=(0, 1), seed=1
    )
    brighter = np.clip(x + 0.2, 0, 1)
    np.testing.assert_allclose(
        checks.to_numpy(layer(x, training=True)),
        np.where(brighter < 0.8, brighter, 1 - brighter),
        rtol=1e-5,
        atol=1e-6,
    )


def test_the_defaults_invert_everything_and_numbers_mean_zero_to_them():
    x = checks.images()
    np.testing.assert_allclose(
        checks.to_numpy(Solarization(seed=1)(x, training=True)), 255 - x, rtol=1e-6
    )
    layer = Solarization(addition_factor=0.3, threshold_factor=0.6)
    assert (layer.addition_factor, layer.threshold_factor) == ((0, 0.3), (0, 0.6))
