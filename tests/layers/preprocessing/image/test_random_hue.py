"""`RandomHue`."""

import numpy as np

import tripod
from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_hue import RandomHue


def test_passes_the_shared_checks():
    checks.check_all(RandomHue, {"factor": 0.5}, checks.images())


def test_factor_zero_keeps_the_image():
    x = checks.images()
    np.testing.assert_allclose(
        checks.to_numpy(RandomHue((0.0, 0.0), seed=1)(x, training=True)), x, rtol=1e-5, atol=1e-3
    )


def test_factor_one_turns_each_colour_to_its_complement():
    x = np.array([[[[255, 0, 0], [0, 255, 0]], [[0, 0, 1], [1, 0.5, 0]]]], "float32")
    expected = np.array([[[[0, 255, 255], [255, 0, 255]], [[1, 1, 0], [0, 0.5, 1]]]], "float32")
    np.testing.assert_allclose(
        checks.to_numpy(RandomHue((1.0, 1.0), seed=1)(x[:, :1], training=True)),
        expected[:, :1],
        atol=1e-3,
    )
    layer = RandomHue((1.0, 1.0), value_range=(0, 1), seed=1)
    np.testing.assert_allclose(
        checks.to_numpy(layer(x[:, 1:], training=True)), expected[:, 1:], atol=1e-5
    )


def test_the_shift_is_at_most_half_the_factor_either_way():
    x = tripod.ops.convert_to_tensor(checks.images(batch=64, height=1, width=1))
    shift = checks.to_numpy(
        RandomHue((0.2, 0.6), seed=3).get_random_transformation({"images": x})["factor"]
    )
    assert np.all((np.abs(shift) >= 0.1 - 1e-6) & (np.abs(shift) <= 0.3 + 1e-6))
    assert shift.min() < 0 < shift.max()
