"""`RandomPosterization`."""

import numpy as np
import pytest

import tripod
from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_posterization import RandomPosterization


def test_passes_the_shared_checks():
    checks.check_all(RandomPosterization, {"factor": 4}, checks.images())


@pytest.mark.parametrize("bits", [1, 2, 5, 8])
def test_keeps_the_top_bits_of_each_byte(bits):
    x = checks.images()
    out = checks.to_numpy(RandomPosterization((bits, bits), seed=1)(x, training=True))
    shift = 8 - bits
    np.testing.assert_array_equal(out, (x.astype("int32") >> shift) << shift)


def test_works_in_the_unit_range():
    x = checks.images(low=0, high=1)
    out = checks.to_numpy(RandomPosterization((3, 3), value_range=(0, 1), seed=1)(x, training=True))
    np.testing.assert_allclose(out, (((x * 255).astype("int32") >> 5) << 5) / 255.0, rtol=1e-6)


def test_a_number_draws_every_count_from_one_to_it():
    x = checks.images(batch=64, height=1, width=1)
    layer = RandomPosterization(3, seed=2)
    assert layer.factor == (1, 3)
    shifts = checks.to_numpy(
        layer.get_random_transformation({"images": tripod.ops.convert_to_tensor(x)})["shift_factor"]
    )
    assert set(np.unique(8 - shifts)) == {1, 2, 3}
