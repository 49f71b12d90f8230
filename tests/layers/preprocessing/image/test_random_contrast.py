"""`RandomContrast`."""

import numpy as np

import tripod
from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_contrast import RandomContrast


def test_passes_the_shared_checks():
    checks.check_all(RandomContrast, {"factor": 0.5}, checks.images())


def test_scales_each_channel_about_its_mean_and_clips():
    x = checks.images(batch=4)
    layer = RandomContrast(factor=0.6, seed=2)
    transformation = layer.get_random_transformation({"images": tripod.ops.convert_to_tensor(x)})
    factor = checks.to_numpy(transformation["contrast_factor"])
    out = checks.to_numpy(layer.transform_images(x, transformation))
    mean = x.mean(axis=(1, 2), keepdims=True)
    np.testing.assert_allclose(
        out, np.clip((x - mean) * factor + mean, 0, 255), rtol=1e-5, atol=1e-3
    )


def test_a_number_draws_factors_on_both_sides_of_one():
    layer = RandomContrast(factor=0.5, seed=1)
    assert layer.factor == (0.5, 0.5)
    x = tripod.ops.convert_to_tensor(checks.images(batch=64, height=1, width=1))
    factor = checks.to_numpy(layer.get_random_transformation({"images": x})["contrast_factor"])
    assert factor.min() >= 0.5 and factor.max() <= 1.5
    assert factor.min() < 0.9 and factor.max() > 1.1


def test_a_pair_is_sorted_and_gives_the_lower_and_upper_bound():
    layer = RandomContrast(factor=(0.7, 0.2), seed=1)
    assert layer.factor == (0.2, 0.7)
    x = tripod.ops.convert_to_tensor(checks.images(batch=64, height=1, width=1))
    factor = checks.to_numpy(layer.get_random_transformation({"images": x})["contrast_factor"])
    assert factor.min() >= 0.8 and factor.max() <= 1.7 and factor.min() < 0.9 and factor.max() > 1.6
