"""`RandomCrop`."""

import numpy as np
import pytest

import tripod
from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_crop import RandomCrop

KWARGS = {"height": 4, "width": 6}


def test_passes_the_shared_checks_but_inference_identity():
    x = checks.images()
    checks.check_seeded(RandomCrop, KWARGS, x)
    checks.check_pipeline_matches_eager(RandomCrop, KWARGS, x)
    checks.check_unbatched(RandomCrop, KWARGS, x)
    checks.check_channels_first(RandomCrop, KWARGS, x)
    checks.check_config_round_trip(RandomCrop, KWARGS)
    checks.check_in_model(RandomCrop, KWARGS, x)


def test_training_crops_one_window_for_the_batch_and_moves_boxes():
    x = checks.images()
    boxes = {
        "boxes": np.array([[[2, 1, 7, 5]], [[0, 0, 1, 1]]], "float32"),
        "labels": np.array([[1], [2]]),
    }
    out = RandomCrop(seed=3, bounding_box_format="xyxy", **KWARGS)(
        {"images": x, "bounding_boxes": boxes}, training=True
    )
    images = checks.to_numpy(out["images"])
    found = [
        (t, l)
        for t in range(5)
        for l in range(5)
        if np.allclose(images, x[:, t : t + 4, l : l + 6])
    ]
    assert len(found) == 1
    top, left = found[0]
    expected = np.clip(boxes["boxes"] - [left, top, left, top], 0, [6, 4, 6, 4])
    np.testing.assert_allclose(checks.to_numpy(out["bounding_boxes"]["boxes"]), expected, atol=1e-5)
    empty = (expected[..., 2] - expected[..., 0]) * (expected[..., 3] - expected[..., 1]) <= 0
    np.testing.assert_array_equal(
        checks.to_numpy(out["bounding_boxes"]["labels"]), np.where(empty, -1, boxes["labels"])
    )


def test_inference_center_crops_to_the_aspect_ratio_then_resizes():
    x = checks.images()  # 8 x 10
    out = checks.to_numpy(RandomCrop(4, 4)(x, training=False))
    expected = tripod.ops.image.resize(x[:, :, 1:9], (4, 4))  # the centered 8 x 8 window
    np.testing.assert_allclose(out, checks.to_numpy(expected), atol=1e-3)
    masks = np.arange(160, dtype="int32").reshape(2, 8, 10, 1)
    out = RandomCrop(2, 5)({"images": x, "segmentation_masks": masks}, training=False)[
        "segmentation_masks"
    ]
    expected = tripod.ops.image.resize(
        masks[:, 2:6], (2, 5), interpolation="nearest"
    )  # centered 4 x 10
    np.testing.assert_array_equal(checks.to_numpy(out), checks.to_numpy(expected))


def test_boxes_scale_with_the_inference_resize():
    x = checks.images()
    boxes = {"boxes": np.array([[[2, 0, 6, 4]]] * 2, "float32"), "labels": np.ones((2, 1), "int32")}
    out = RandomCrop(4, 4, bounding_box_format="xyxy")(
        {"images": x, "bounding_boxes": boxes}, training=False
    )
    np.testing.assert_allclose(
        checks.to_numpy(out["bounding_boxes"]["boxes"]), [[[0.5, 0, 2.5, 2]]] * 2, atol=1e-5
    )


def test_output_shape_and_argument_checks():
    assert RandomCrop(3, 5).compute_output_shape((None, 8, 10, 3)) == (None, 3, 5, 3)
    assert RandomCrop(3, 5, data_format="channels_first").compute_output_shape((3, 8, 10)) == (
        3,
        3,
        5,
    )
    with pytest.raises(
        ValueError, match="RandomCrop 'c': height must be a positive integer, received 0"
    ):
        RandomCrop(0, 4, name="c")
