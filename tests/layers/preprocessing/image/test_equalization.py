"""`Equalization`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tests.layers.preprocessing.image.deterministic import check_all_deterministic
from tripod.layers.preprocessing.image.equalization import Equalization


def equalize(x, bins, value_range):
    """Reference: per image and channel, each value's bin mapped by the rescaled cumulative count."""
    low, high = value_range
    out = np.empty_like(x)
    for b in range(x.shape[0]):
        for c in range(x.shape[-1]):
            values = (x[b, ..., c] - low) / (high - low) * 255.0
            index = np.clip((values * (bins - 1) / 255.0).astype(int), 0, bins - 1)
            cdf = np.cumsum(np.bincount(index.ravel(), minlength=bins))
            first = cdf[cdf > 0][0]
            if cdf[-1] == first:
                out[b, ..., c] = x[b, ..., c]
                continue
            lookup = np.clip(np.round((cdf - first) * 255.0 / (cdf[-1] - first)), 0, 255)
            out[b, ..., c] = lookup[index] / 255.0 * (high - low) + low
    return out


def test_passes_the_shared_checks():
    check_all_deterministic(Equalization, {}, checks.images())


@pytest.mark.parametrize(
    "bins, value_range", [(256, (0, 255)), (16, (0, 255)), (64, (0, 1)), (32, (-1, 1))]
)
def test_matches_a_reference_per_image_and_channel(bins, value_range):
    x = checks.images(batch=3, low=value_range[0], high=value_range[1])
    x[1] = x[1] * 0.3 + value_range[0] * 0.7  # a dark image: its own histogram, not the batch's
    out = checks.to_numpy(Equalization(value_range=value_range, bins=bins)(x))
    np.testing.assert_allclose(out, equalize(x, bins, value_range), rtol=1e-5, atol=1e-4)


def test_keeps_a_channel_with_one_occupied_bin():
    x = checks.images()
    x[0, ..., 2] = 200.0
    np.testing.assert_array_equal(checks.to_numpy(Equalization()(x))[0, ..., 2], x[0, ..., 2])


def test_rejects_a_bad_bin_count():
    with pytest.raises(ValueError, match="Equalization 'eq': `bins` must be an int of at least 2"):
        Equalization(bins=1, name="eq")
