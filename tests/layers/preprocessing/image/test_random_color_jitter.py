"""`RandomColorJitter`."""

import numpy as np

import tripod
from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_color_jitter import RandomColorJitter

ALL = {
    "brightness_factor": 0.2,
    "contrast_factor": 0.4,
    "saturation_factor": 0.7,
    "hue_factor": 0.3,
}


def test_passes_the_shared_checks():
    checks.check_all(RandomColorJitter, ALL, checks.images())


def test_applies_brightness_then_contrast():
    x = checks.images()
    layer = RandomColorJitter(brightness_factor=(0.4, 0.4), contrast_factor=0.5, seed=1)
    brightness, contrast = layer.get_random_transformation(
        {"images": tripod.ops.convert_to_tensor(x)}
    )
    assert np.allclose(checks.to_numpy(brightness["rgb_delta"]), 102.0)
    brighter = np.clip(x + 102.0, 0, 255)
    mean = brighter.mean(axis=(1, 2), keepdims=True)
    expected = np.clip(
        (brighter - mean) * checks.to_numpy(contrast["contrast_factor"]) + mean, 0, 255
    )
    out = checks.to_numpy(layer.transform_images(x, [brightness, contrast]))
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-3)


def test_no_factors_keep_the_image_and_each_step_draws_its_own_numbers():
    x = checks.images()
    np.testing.assert_allclose(checks.to_numpy(RandomColorJitter(seed=1)(x, training=True)), x)
    layer = RandomColorJitter(brightness_factor=0.5, contrast_factor=0.5, seed=1)
    brightness, contrast = layer.get_random_transformation(
        {"images": tripod.ops.convert_to_tensor(x)}
    )
    assert not np.allclose(
        checks.to_numpy(brightness["rgb_delta"]) / 255 + 1,
        checks.to_numpy(contrast["contrast_factor"]),
    )


def test_config_keeps_the_factors_as_given():
    config = RandomColorJitter(value_range=(0, 1), hue_factor=0.2, seed=4).get_config()
    assert config["hue_factor"] == 0.2 and config["brightness_factor"] is None
    assert config["value_range"] == [0, 1]
