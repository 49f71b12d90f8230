"""`RandomFlip` with bounding boxes."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_flip import RandomFlip


@pytest.mark.parametrize("mode", ["horizontal", "vertical", "horizontal_and_vertical"])
def test_boxes_flip_with_their_images(mode):
    x = checks.images(batch=8, height=4, width=6)
    boxes = np.array([[1, 0, 3, 1]] * 8, "float32")[:, None]  # xywh in an image 6 wide, 4 high
    layer = RandomFlip(mode, seed=2, bounding_box_format="xywh")
    out = layer(
        {"images": x, "bounding_boxes": {"boxes": boxes, "labels": np.ones((8, 1), "int32")}},
        training=True,
    )
    axes = {"horizontal": (1,), "vertical": (0,), "horizontal_and_vertical": (0, 1)}[mode]
    flipped_box = [1 if mode == "vertical" else 2, 3 if mode != "horizontal" else 0, 3, 1]
    for image, source, box in zip(
        checks.to_numpy(out["images"]), x, checks.to_numpy(out["bounding_boxes"]["boxes"])
    ):
        flipped = np.array_equal(image, np.flip(source, axis=axes))
        np.testing.assert_allclose(box[0], flipped_box if flipped else [1, 0, 3, 1], atol=1e-5)
