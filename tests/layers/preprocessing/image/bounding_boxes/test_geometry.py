"""`clip_to_image_size`, `crop`, `pad` and `affine_transform` against hand-computed boxes."""

import numpy as np
import pytest

from tests.layers.preprocessing.image.checks import to_numpy
from tripod.layers.preprocessing.image.bounding_boxes import (
    affine_transform,
    clip_to_image_size,
    crop,
    pad,
)


def test_clip_to_image_size_clips_and_drops_empty_boxes():
    boxes = {
        "boxes": np.array([[-10, -20, 150, 160], [50, 40, 70, 80], [130, 10, 140, 20]], "float32"),
        "labels": np.array([0, 1, 2]),
    }
    out = clip_to_image_size(boxes, height=100, width=120)
    np.testing.assert_array_equal(
        to_numpy(out["boxes"]), [[0, 0, 120, 100], [50, 40, 70, 80], [120, 10, 120, 20]]
    )
    np.testing.assert_array_equal(to_numpy(out["labels"]), [0, 1, -1])
    rel = clip_to_image_size(
        {"boxes": np.array([[-0.5, 0.2, 0.5, 1.5]], "float32")}, bounding_box_format="rel_xyxy"
    )
    np.testing.assert_allclose(to_numpy(rel["boxes"]), [[0.0, 0.2, 0.5, 1.0]])


def test_clip_to_image_size_rejects_what_it_cannot_do():
    with pytest.raises(ValueError, match="need the image height and width"):
        clip_to_image_size({"boxes": np.zeros((1, 4))})
    with pytest.raises(NotImplementedError, match="received 'xywh'"):
        clip_to_image_size({"boxes": np.zeros((1, 4))}, 10, 10, bounding_box_format="xywh")


def test_crop_moves_and_clips_and_pad_moves():
    boxes = np.array([[10, 20, 50, 60], [70, 80, 100, 120]])
    np.testing.assert_array_equal(
        to_numpy(crop(boxes, top=10, left=20, height=40, width=30)),
        [[0, 10, 30, 40], [30, 40, 30, 40]],
    )
    np.testing.assert_array_equal(
        to_numpy(pad(boxes, top=5, left=7)), [[17, 25, 57, 65], [77, 85, 107, 125]]
    )


def test_affine_transform_translates_scales_and_rotates():
    boxes = np.array([[[2.0, 2.0, 4.0, 6.0]], [[2.0, 2.0, 4.0, 6.0]]], "float32")
    zero, one = np.zeros(2, "float32"), np.ones(2, "float32")
    moved = affine_transform(
        boxes,
        zero,
        np.array([0.1, 0.0], "float32"),
        np.array([0.0, 0.2], "float32"),
        one,
        zero,
        zero,
        height=11,
        width=11,
    )
    np.testing.assert_allclose(to_numpy(moved), [[[3, 2, 5, 6]], [[2, 4, 4, 8]]], atol=1e-5)
    scaled = affine_transform(
        boxes[:1], zero[:1], zero[:1], zero[:1], 2 * one[:1], zero[:1], zero[:1], 11, 11
    )
    np.testing.assert_allclose(
        to_numpy(scaled), [[[-1, -1, 3, 7]]], atol=1e-5
    )  # about the center (5, 5)
    turned = affine_transform(
        boxes[:1], 180 * one[:1], zero[:1], zero[:1], one[:1], zero[:1], zero[:1], 11, 11
    )
    np.testing.assert_allclose(to_numpy(turned), [[[6, 4, 8, 8]]], atol=1e-5)
