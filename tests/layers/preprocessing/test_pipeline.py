"""`Pipeline`."""

import numpy as np
import pytest
import tensorflow as tf

import tripod
from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_flip import RandomFlip
from tripod.layers.preprocessing.image.random_gaussian_blur import RandomGaussianBlur
from tripod.layers.preprocessing.pipeline import Pipeline
from tripod.layers.preprocessing.rescaling import Rescaling


def _pipeline(seed=1):
    return Pipeline(
        [
            Rescaling(0.5),
            RandomFlip("horizontal", seed=seed),
            RandomGaussianBlur(factor=(1.0, 1.0), sigma=(0.5, 0.5), seed=seed),
        ],
        name="augment",
    )


def _by_hand(x, seed=1):
    """The same layers applied one by one."""
    y = Rescaling(0.5)(x)
    y = RandomFlip("horizontal", seed=seed)(y, training=True)
    return checks.to_numpy(
        RandomGaussianBlur(factor=(1.0, 1.0), sigma=(0.5, 0.5), seed=seed)(y, training=True)
    )


def test_applies_its_layers_in_order():
    x = checks.images()
    np.testing.assert_allclose(
        checks.to_numpy(_pipeline()(x, training=True)), _by_hand(x), rtol=1e-5, atol=1e-4
    )
    assert [type(layer).__name__ for layer in _pipeline().layers] == [
        "Rescaling",
        "RandomFlip",
        "RandomGaussianBlur",
    ]


def test_inference_skips_the_random_layers():
    x = checks.images()
    np.testing.assert_allclose(checks.to_numpy(_pipeline()(x, training=False)), x * 0.5, rtol=1e-6)


def test_works_on_dicts():
    x = checks.images(batch=4, height=3, width=4, channels=1)
    out = Pipeline([RandomFlip("horizontal", seed=2)])(
        {"images": x, "segmentation_masks": x}, training=True
    )
    np.testing.assert_array_equal(
        checks.to_numpy(out["images"]), checks.to_numpy(out["segmentation_masks"])
    )


def test_config_round_trip_rebuilds_the_nested_layers():
    config = _pipeline().get_config()
    assert config["name"] == "augment" and len(config["layers"]) == 3
    again = Pipeline.from_config(config)
    assert again.get_config() == config
    x = checks.images()
    np.testing.assert_allclose(
        checks.to_numpy(again(x, training=True)), _by_hand(x), rtol=1e-5, atol=1e-4
    )
    pipeline = _pipeline()
    restored = tripod.saving.deserialize_keras_object(
        tripod.saving.serialize_keras_object(pipeline)
    )
    assert isinstance(restored, Pipeline) and restored.get_config() == pipeline.get_config()


def test_from_config_needs_a_list_of_layers():
    with pytest.raises(ValueError, match="Pipeline.from_config: the config needs 'layers'"):
        Pipeline.from_config({"name": "p"})


def test_runs_in_a_tf_data_map_with_tensorflow_ops():
    x = checks.images()
    pipeline = _pipeline()
    dataset = tf.data.Dataset.from_tensors(x).map(lambda t: pipeline(t, training=True))
    np.testing.assert_allclose(
        next(iter(dataset.as_numpy_iterator())), _by_hand(x), rtol=1e-5, atol=1e-3
    )


def test_in_a_model():
    x = checks.images()
    checks.check_in_model(lambda seed: _pipeline(seed), {}, x)
