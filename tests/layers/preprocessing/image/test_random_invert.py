"""`RandomInvert`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_invert import RandomInvert


def test_passes_the_shared_checks():
    checks.check_all(RandomInvert, {"factor": 0.8}, checks.images(batch=6))


@pytest.mark.parametrize("value_range", [(0, 255), (0, 1), (-1, 1)])
def test_probability_one_inverts_every_image_within_the_range(value_range):
    x = checks.images(low=value_range[0], high=value_range[1])
    out = checks.to_numpy(
        RandomInvert((1.0, 1.0), value_range=value_range, seed=1)(x, training=True)
    )
    np.testing.assert_allclose(out, sum(value_range) - x, rtol=1e-6, atol=1e-5)


def test_probability_zero_keeps_every_image_and_the_default_inverts_some():
    x = checks.images(batch=32, height=2, width=2)
    np.testing.assert_array_equal(checks.to_numpy(RandomInvert(0.0, seed=1)(x, training=True)), x)
    out = checks.to_numpy(RandomInvert(seed=1)(x, training=True))
    inverted = [np.allclose(o, 255 - i) for o, i in zip(out, x)]
    kept = [np.array_equal(o, i) for o, i in zip(out, x)]
    assert all(a != b for a, b in zip(inverted, kept)) and 0 < sum(inverted) < 32
