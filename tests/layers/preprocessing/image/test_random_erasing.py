"""`RandomErasing`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_erasing import RandomErasing


def test_passes_the_shared_checks():
    checks.check_all(RandomErasing, {}, checks.images())


def _erased(out, x):
    return np.any(out != x, axis=-1)


def test_erases_one_rectangle_with_the_fill_value():
    x = checks.images(batch=6, height=8, width=10, low=10, high=200)
    out = checks.to_numpy(
        RandomErasing(factor=(1.0, 1.0), scale=(0.2, 0.5), fill_value=0.0, seed=1)(x, training=True)
    )
    for o, i in zip(out, x):
        erased = _erased(o, i)
        rows, cols = np.nonzero(erased)
        assert erased[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1].all()
        np.testing.assert_array_equal(o[erased], 0.0)
        # each side spans sqrt(scale) of the image: between sqrt(0.2) and sqrt(0.5) of it, +-1 pixel
        assert np.sqrt(0.2) * 8 - 1 <= rows.max() - rows.min() + 1 <= np.sqrt(0.5) * 8 + 1
        assert np.sqrt(0.2) * 10 - 1 <= cols.max() - cols.min() + 1 <= np.sqrt(0.5) * 10 + 1


def test_per_channel_fill_value_and_channels_first():
    x = checks.images(batch=2, height=6, width=6, low=10, high=200)
    layer = RandomErasing(
        factor=(1.0, 1.0), fill_value=[1.0, 2.0, 3.0], data_format="channels_first", seed=2
    )
    out = np.transpose(
        checks.to_numpy(layer(np.transpose(x, (0, 3, 1, 2)), training=True)), (0, 2, 3, 1)
    )
    erased = _erased(out, x)
    assert erased.any()
    np.testing.assert_array_equal(out[erased], np.tile([[1.0, 2.0, 3.0]], (erased.sum(), 1)))


def test_noise_fill_stays_in_value_range():
    x = checks.images(batch=4, low=0, high=1)
    out = checks.to_numpy(
        RandomErasing(factor=(1.0, 1.0), scale=(0.3, 0.33), value_range=(0, 1), seed=3)(
            x, training=True
        )
    )
    assert out.min() >= 0.0 and out.max() <= 1.0
    assert np.any(out != x)


def test_factor_zero_never_erases():
    x = checks.images()
    np.testing.assert_array_equal(
        checks.to_numpy(RandomErasing(factor=0.0, seed=3)(x, training=True)), x
    )


def test_rejects_bad_arguments():
    with pytest.raises(ValueError, match="RandomErasing 'e': scale must be"):
        RandomErasing(scale=(2.0, 3.0), name="e")
    with pytest.raises(ValueError, match="RandomErasing 'e': fill_value must be"):
        RandomErasing(fill_value=[1, 2], name="e")
