"""`MaxNumBoundingBoxes`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.max_num_bounding_boxes import MaxNumBoundingBoxes

BOXES = {
    "boxes": np.arange(24, dtype="float32").reshape(2, 3, 4),
    "labels": np.array([[1, 2, 3], [4, 5, 6]]),
}


def test_pads_with_the_fill_value():
    x = checks.images()
    out = MaxNumBoundingBoxes(5, fill_value=-2)({"images": x, "bounding_boxes": BOXES})
    np.testing.assert_array_equal(checks.to_numpy(out["images"]), x)
    boxes = checks.to_numpy(out["bounding_boxes"]["boxes"])
    np.testing.assert_array_equal(boxes[:, :3], BOXES["boxes"])
    np.testing.assert_array_equal(boxes[:, 3:], np.full((2, 2, 4), -2))
    np.testing.assert_array_equal(
        checks.to_numpy(out["bounding_boxes"]["labels"]), [[1, 2, 3, -2, -2], [4, 5, 6, -2, -2]]
    )


def test_truncates_also_unbatched_and_in_a_tf_data_map():
    tf = pytest.importorskip("tensorflow")
    layer = MaxNumBoundingBoxes(2)
    single = layer(
        {"images": checks.images()[0], "bounding_boxes": {k: v[0] for k, v in BOXES.items()}}
    )
    np.testing.assert_array_equal(checks.to_numpy(single["bounding_boxes"]["labels"]), [1, 2])
    data = {"images": checks.images(), "bounding_boxes": BOXES}
    piped = next(iter(tf.data.Dataset.from_tensors(data).map(layer).as_numpy_iterator()))
    np.testing.assert_array_equal(piped["bounding_boxes"]["boxes"], BOXES["boxes"][:, :2])


def test_output_shape_config_and_checks():
    layer = MaxNumBoundingBoxes(4)
    shape = layer.compute_output_shape(
        {"images": (2, 8, 10, 3), "bounding_boxes": {"boxes": (2, 7, 4), "labels": (2, 7)}}
    )
    assert shape["bounding_boxes"] == {"boxes": (2, 4, 4), "labels": (2, 4)} and shape[
        "images"
    ] == (2, 8, 10, 3)
    assert MaxNumBoundingBoxes.from_config(layer.get_config()).get_config() == layer.get_config()
    with pytest.raises(ValueError, match="max_number must be a positive integer"):
        MaxNumBoundingBoxes(0)
    with pytest.raises(KeyError, match="may hold only 'boxes' and 'labels'"):
        layer({"images": checks.images(), "bounding_boxes": {**BOXES, "scores": BOXES["labels"]}})
