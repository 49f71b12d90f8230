"""`RandomRotation`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_rotation import RandomRotation


def test_passes_the_shared_checks():
    checks.check_all(RandomRotation, {"factor": 0.2}, checks.images())


def test_a_quarter_turn_is_rot90_counter_clockwise():
    x = checks.images(batch=2, height=6, width=6)
    out = checks.to_numpy(RandomRotation((0.25, 0.25), seed=1)(x, training=True))
    np.testing.assert_allclose(out, np.rot90(x, 1, axes=(1, 2)), atol=1e-3)


def test_a_half_turn_flips_images_masks_and_boxes():
    x = checks.images(batch=2, height=8, width=10)
    boxes = {
        "boxes": np.array([[[1, 2, 4, 3]], [[0, 0, 10, 8]]], "float32"),
        "labels": np.array([[1], [2]]),
    }
    layer = RandomRotation((0.5, 0.5), bounding_box_format="xyxy", seed=1)
    out = layer(
        {"images": x, "segmentation_masks": x[..., :1].astype("int32"), "bounding_boxes": boxes},
        training=True,
    )
    np.testing.assert_allclose(checks.to_numpy(out["images"]), x[:, ::-1, ::-1], atol=1e-3)
    np.testing.assert_array_equal(
        checks.to_numpy(out["segmentation_masks"]), x[:, ::-1, ::-1, :1].astype("int32")
    )
    np.testing.assert_allclose(
        checks.to_numpy(out["bounding_boxes"]["boxes"]),
        [[[6, 5, 9, 6]], [[0, 0, 10, 8]]],
        atol=1e-4,
    )


def test_boxes_in_a_relative_format_in_a_tf_data_map_match_eager():
    tf = pytest.importorskip("tensorflow")
    x = checks.images()
    data = {
        "images": x,
        "bounding_boxes": {
            "boxes": np.array([[[0.1, 0.2, 0.5, 0.6]]] * 2, "float32"),
            "labels": np.ones((2, 1), "int32"),
        },
    }
    eager = RandomRotation(0.1, bounding_box_format="rel_xyxy", seed=4)(data, training=True)
    layer = RandomRotation(0.1, bounding_box_format="rel_xyxy", seed=4)
    piped = next(
        iter(
            tf.data.Dataset.from_tensors(data)
            .map(lambda d: layer(d, training=True))
            .as_numpy_iterator()
        )
    )
    np.testing.assert_allclose(
        piped["bounding_boxes"]["boxes"],
        checks.to_numpy(eager["bounding_boxes"]["boxes"]),
        atol=1e-4,
    )
    np.testing.assert_allclose(piped["images"], checks.to_numpy(eager["images"]), atol=1e-3)


def test_rejects_a_factor_out_of_range():
    with pytest.raises(ValueError, match="RandomRotation 'r': factor must be"):
        RandomRotation(1.5, name="r")
