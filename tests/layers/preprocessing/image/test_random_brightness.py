"""`RandomBrightness`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_brightness import RandomBrightness


def test_passes_the_shared_checks():
    checks.check_all(RandomBrightness, {"factor": 0.2}, checks.images())


@pytest.mark.parametrize(
    "value_range, factor, shift",
    [((0, 255), 0.5, 127.5), ((0, 1), -0.25, -0.25), ((-1, 1), 0.25, 0.5)],
)
def test_adds_the_factor_times_the_range_and_clips(value_range, factor, shift):
    x = checks.images(low=value_range[0], high=value_range[1])
    layer = RandomBrightness(factor=(factor, factor), value_range=value_range, seed=1)
    np.testing.assert_allclose(
        checks.to_numpy(layer(x, training=True)), np.clip(x + shift, *value_range), rtol=1e-6
    )


def test_minus_one_gives_black_and_one_gives_white():
    x = checks.images()
    np.testing.assert_array_equal(
        checks.to_numpy(RandomBrightness((-1, -1), seed=1)(x, training=True)), 0 * x
    )
    np.testing.assert_array_equal(
        checks.to_numpy(RandomBrightness((1, 1), seed=1)(x, training=True)), 0 * x + 255
    )


def test_a_number_means_a_symmetric_range():
    assert RandomBrightness(0.3).factor == (-0.3, 0.3)
    assert RandomBrightness(-0.3).factor == (-0.3, 0.3)
