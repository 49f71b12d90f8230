"""`tripod.visualization` is Keras's `keras.visualization`: its five names, importable as a
namespace, and reached through the Keras stand-in."""

import json

import pytest

import tripod
from tests.api import keras_api
from tests.saving.helpers import run_python
from tripod.backends import config

NAMES = [
    "draw_bounding_boxes",
    "draw_segmentation_masks",
    "plot_bounding_box_gallery",
    "plot_image_gallery",
    "plot_segmentation_mask_gallery",
]


def test_the_namespace_has_keras_names():
    from tripod.visualization import draw_bounding_boxes

    assert draw_bounding_boxes is tripod.visualization.draw_bounding_boxes
    assert sorted(tripod.visualization.__all__) == NAMES
    if keras_api.available():
        assert sorted(keras_api.section("keras.visualization")) == NAMES


@pytest.mark.skipif(config.backend() != "numpy", reason="the stand-in maps names alike: one run")
def test_the_keras_stand_in_resolves_keras_visualization():
    script = (
        "import json, tripod\n"
        "tripod.use_as_keras()\n"
        "import keras\n"
        "from keras.visualization import plot_image_gallery\n"
        "print(json.dumps([plot_image_gallery is tripod.visualization.plot_image_gallery,\n"
        "    keras.visualization.draw_segmentation_masks\n"
        "    is tripod.visualization.draw_segmentation_masks]))\n"
    )
    assert json.loads(run_python(script, "numpy").strip().splitlines()[-1]) == [True, True]
