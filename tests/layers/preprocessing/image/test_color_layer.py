"""What every colour layer shares: boxes, masks and labels pass through, outputs stay in
`value_range`, factors and value ranges are validated (`ColorLayer`, `check_value_range`)."""

import numpy as np
import pytest
import tensorflow as tf

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.auto_contrast import AutoContrast
from tripod.layers.preprocessing.image.clahe import ContrastLimitedAdaptiveHistogramEqualization
from tripod.layers.preprocessing.image.equalization import Equalization
from tripod.layers.preprocessing.image.random_brightness import RandomBrightness
from tripod.layers.preprocessing.image.random_color_degeneration import RandomColorDegeneration
from tripod.layers.preprocessing.image.random_color_jitter import RandomColorJitter
from tripod.layers.preprocessing.image.random_contrast import RandomContrast
from tripod.layers.preprocessing.image.random_grayscale import RandomGrayscale
from tripod.layers.preprocessing.image.random_hue import RandomHue
from tripod.layers.preprocessing.image.random_invert import RandomInvert
from tripod.layers.preprocessing.image.random_posterization import RandomPosterization
from tripod.layers.preprocessing.image.random_saturation import RandomSaturation
from tripod.layers.preprocessing.image.random_sharpness import RandomSharpness
from tripod.layers.preprocessing.image.solarization import Solarization

CLAHE = ContrastLimitedAdaptiveHistogramEqualization
JITTER = {
    "brightness_factor": 0.3,
    "contrast_factor": 0.5,
    "saturation_factor": 0.9,
    "hue_factor": 0.4,
}
#: strong settings for each layer taking a value_range, so clipping matters
RANGED = [
    (RandomContrast, {"factor": 0.9}),
    (RandomBrightness, {"factor": 0.8}),
    (RandomHue, {"factor": 1.0}),
    (RandomSaturation, {"factor": (0.0, 1.0)}),
    (RandomSharpness, {"factor": 1.0}),
    (RandomInvert, {"factor": (0.5, 1.0)}),
    (RandomPosterization, {"factor": (1, 3)}),
    (Solarization, {"addition_factor": 0.5, "threshold_factor": 0.5}),
    (AutoContrast, {}),
    (Equalization, {"bins": 16}),
    (CLAHE, {"tile_grid_size": (2, 2)}),
    (RandomColorJitter, JITTER),
    (RandomColorDegeneration, {"factor": 1.0}),
]
EVERY = RANGED + [(RandomGrayscale, {"factor": 1.0})]


def _name(param):
    return param.__name__ if isinstance(param, type) else ""


@pytest.mark.parametrize("value_range", [(0, 1), (-1, 1), (0, 255)])
@pytest.mark.parametrize("layer_cls, kwargs", RANGED, ids=_name)
def test_outputs_stay_in_the_value_range(layer_cls, kwargs, value_range):
    low, high = value_range
    x = checks.images(batch=6, low=low, high=high)
    out = checks.to_numpy(layer_cls(value_range=value_range, seed=3, **kwargs)(x, training=True))
    assert out.dtype == np.float32 and out.shape == x.shape
    assert out.min() >= low - 1e-5 and out.max() <= high + 1e-5


@pytest.mark.parametrize("layer_cls, kwargs", EVERY, ids=_name)
def test_boxes_masks_and_labels_pass_through(layer_cls, kwargs):
    x = checks.images(batch=2, height=4, width=5)
    data = {
        "images": x,
        "labels": np.array([[1.0], [0.0]], "float32"),
        "segmentation_masks": np.arange(40, dtype="float32").reshape(2, 4, 5, 1),
        "bounding_boxes": {
            "boxes": np.array([[[1.0, 2.0, 3.0, 4.0]]] * 2, "float32"),
            "labels": np.array([[0], [1]], "int32"),
        },
    }
    out = layer_cls(seed=1, bounding_box_format="xyxy", **kwargs)(data, training=True)
    for key in ("labels", "segmentation_masks"):
        np.testing.assert_array_equal(checks.to_numpy(out[key]), data[key])
    for key in ("boxes", "labels"):
        np.testing.assert_array_equal(
            checks.to_numpy(out["bounding_boxes"][key]), data["bounding_boxes"][key]
        )
    assert checks.to_numpy(out["images"]).shape == x.shape


@pytest.mark.parametrize("layer_cls, kwargs", EVERY, ids=_name)
def test_integer_images_come_back_as_floats(layer_cls, kwargs):
    x = checks.images(batch=2).astype("uint8")
    out = checks.to_numpy(layer_cls(seed=1, **kwargs)(x, training=True))
    assert out.dtype == np.float32 and out.shape == x.shape


@pytest.mark.parametrize(
    "layer_cls, kwargs",
    [
        (RandomContrast, {"factor": 1.5}),
        (RandomContrast, {"factor": (0.1, 0.2, 0.3)}),
        (RandomBrightness, {"factor": -1.5}),
        (RandomBrightness, {"factor": "0.2"}),
        (RandomHue, {"factor": (-0.1, 0.5)}),
        (RandomSaturation, {"factor": 1.2}),
        (RandomSharpness, {"factor": None}),
        (RandomInvert, {"factor": 2}),
        (RandomPosterization, {"factor": 9}),
        (RandomPosterization, {"factor": (0, 4)}),
        (RandomPosterization, {"factor": 2.5}),
        (Solarization, {"threshold_factor": 1.5}),
        (Solarization, {"addition_factor": (0.1, 0.2, 0.3)}),
        (RandomColorDegeneration, {"factor": 3}),
        (RandomGrayscale, {"factor": 1.1}),
        (RandomGrayscale, {"factor": (0.1, 0.2)}),
    ],
)
def test_rejects_a_bad_factor(layer_cls, kwargs):
    with pytest.raises(ValueError, match=f"{layer_cls.__name__} 'bad': `?\\w*factor`? must be"):
        layer_cls(name="bad", **kwargs)


def test_color_jitter_names_the_step_with_a_bad_factor():
    with pytest.raises(ValueError, match="RandomHue 'bad_hue': factor must be .* received 2.0"):
        RandomColorJitter(hue_factor=2.0, name="bad")


@pytest.mark.parametrize("value_range", [(0,), 255, (1, 1), ("a", "b")])
@pytest.mark.parametrize("layer_cls, kwargs", RANGED, ids=_name)
def test_rejects_a_bad_value_range(layer_cls, kwargs, value_range):
    with pytest.raises(ValueError, match=f"{layer_cls.__name__} 'bad': `value_range` must be"):
        layer_cls(value_range=value_range, name="bad", **kwargs)


def test_a_reversed_value_range_is_sorted_as_keras_does():
    assert RandomBrightness(0.1, value_range=[255, 0]).get_config()["value_range"] == [0, 255]


@pytest.mark.parametrize(
    "layer_cls", [RandomGrayscale, RandomColorDegeneration, RandomHue, RandomSaturation]
)
def test_rgb_layers_reject_images_without_three_channels(layer_cls):
    kwargs = {} if layer_cls is RandomGrayscale else {"factor": (1.0, 1.0)}
    with pytest.raises(ValueError, match="3 channels"):
        layer_cls(seed=1, **kwargs)(checks.images(channels=2), training=True)


@pytest.mark.parametrize("layer_cls, kwargs", EVERY, ids=_name)
def test_runs_in_a_tf_data_map_on_images_of_unknown_shape(layer_cls, kwargs):
    x = checks.images()
    layer = layer_cls(seed=1, **kwargs)
    spec = tf.TensorSpec((None, None, None, 3), tf.float32)
    dataset = tf.data.Dataset.from_generator(lambda: iter([x]), output_signature=spec)
    piped = next(iter(dataset.map(lambda t: layer(t, training=True)).as_numpy_iterator()))
    eager = checks.to_numpy(layer_cls(seed=1, **kwargs)(x, training=True))
    np.testing.assert_allclose(piped, eager, rtol=1e-5, atol=1e-3)
