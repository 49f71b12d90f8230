"""`compute_iou`, `compute_ciou`, `encode_box_to_deltas` and `decode_deltas_to_boxes` against
hand-computed values."""

import math

import numpy as np
import pytest

from tests.layers.preprocessing.image.checks import to_numpy
from tripod.layers.preprocessing.image.bounding_boxes import (
    compute_ciou,
    compute_iou,
    decode_deltas_to_boxes,
    encode_box_to_deltas,
)

A = np.array([[0, 0, 10, 10], [5, 5, 15, 15], [-1, -1, -1, -1]], "float32")
B = np.array([[0, 0, 10, 10], [0, 0, 5, 20]], "float32")
# intersections: A0-B0 100, A0-B1 50, A1-B0 25, A1-B1 0; areas 100, 100, 0 and 100, 100
TABLE = np.array([[1.0, 50 / 150], [25 / 175, 0.0], [0.0, 0.0]], "float32")


def test_iou_table_unbatched_and_batched():
    np.testing.assert_allclose(to_numpy(compute_iou(A, B, "xyxy")), TABLE, atol=1e-5)
    batched = to_numpy(compute_iou(np.stack([A, A]), B, "xyxy"))
    assert batched.shape == (2, 3, 2)
    np.testing.assert_allclose(batched[1], TABLE, atol=1e-5)
    yxyx = A[:, [1, 0, 3, 2]], B[:, [1, 0, 3, 2]]
    np.testing.assert_allclose(to_numpy(compute_iou(*yxyx, "yxyx")), TABLE, atol=1e-5)


def test_iou_masking_and_relative_formats():
    masked = to_numpy(compute_iou(A, B, "xyxy", use_masking=True, mask_val=-7))
    np.testing.assert_allclose(masked[:2], TABLE[:2], atol=1e-5)
    np.testing.assert_array_equal(masked[2], [-7, -7])
    rel = to_numpy(compute_iou(A[:2] / 20, B / 20, "rel_xyxy", image_shape=(20, 20, 3)))
    np.testing.assert_allclose(rel, TABLE[:2], atol=1e-5)
    with pytest.raises(ValueError, match="need `image_shape`"):
        compute_iou(A, B, "rel_xyxy")


def test_ciou_is_iou_for_same_centers_and_shapes_and_penalises_distance():
    same = to_numpy(compute_ciou(A[:1], A[:1], "xyxy"))
    np.testing.assert_allclose(same, [1.0], atol=1e-5)
    # disjoint equal squares 10 apart: IoU 0, enclosing box 20 x 10, centers 10 apart
    far = to_numpy(
        compute_ciou(
            np.array([[0, 0, 10, 10]], "float32"), np.array([[10, 0, 20, 10]], "float32"), "xyxy"
        )
    )
    np.testing.assert_allclose(far, [-100 / 500], atol=1e-5)
    # concentric 10x10 and 20x10: IoU 1/2, no distance, aspect term v = 4/pi^2 (atan 2 - atan 1)^2
    v = 4 / math.pi**2 * (math.atan(2.0) - math.atan(1.0)) ** 2
    wide = to_numpy(
        compute_ciou(
            np.array([[5, 0, 15, 10]], "float32"), np.array([[0, 0, 20, 10]], "float32"), "xyxy"
        )
    )
    np.testing.assert_allclose(wide, [0.5 - v * v / (v + 0.5)], atol=1e-5)


def test_deltas_round_trip_and_values():
    anchors = np.array([[0, 0, 10, 10], [10, 10, 30, 20]], "float32")
    boxes = np.array([[[1, 2, 11, 12], [10, 10, 30, 20]]], "float32")
    deltas = to_numpy(
        encode_box_to_deltas(anchors, boxes, "xyxy", "xyxy", encoding_format="center_xywh")
    )
    np.testing.assert_allclose(deltas, [[[0.1, 0.2, 0.0, 0.0], [0, 0, 0, 0]]], atol=1e-6)
    scaled = to_numpy(
        encode_box_to_deltas(anchors, boxes, "xyxy", "xyxy", variance=[0.2, 0.1, 0.5, 0.5])
    )
    np.testing.assert_allclose(
        scaled[0, 0], [1.0, 1.0, 0.0, 0.0], atol=1e-5
    )  # center_yxhw: (dy, dx) first
    back = decode_deltas_to_boxes(
        {"p3": anchors}, {"p3": scaled}, "xyxy", "xyxy", variance=[0.2, 0.1, 0.5, 0.5]
    )
    np.testing.assert_allclose(to_numpy(back["p3"]), boxes, atol=1e-4)
    with pytest.raises(ValueError, match="variance must hold 4 numbers"):
        encode_box_to_deltas(anchors, boxes, "xyxy", "xyxy", variance=[1.0, 1.0])
    with pytest.raises(ValueError, match="encoding must be one of"):
        decode_deltas_to_boxes(anchors, boxes, "xyxy", "xyxy", encoded_format="xyxy")
