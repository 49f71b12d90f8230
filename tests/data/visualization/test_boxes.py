"""`draw_bounding_boxes`: outlines at exact pixels for one box given in every format, thickness,
clipping, colours, layouts and value scaling, and the OpenCV labels (through a fake `cv2`)."""

import sys

import numpy as np
import pytest

from tests.data.visualization.fakes import cv2  # noqa: F401 (a fixture)
from tripod import ops
from tripod.data.visualization.boxes import draw_bounding_boxes, text_origin

RED = (255, 0, 0)
HEIGHT, WIDTH = 8, 16
#: one box, x from 2 to 10 and y from 1 to 5, in each format (the relative ones exact in binary)
BOX = {
    "xyxy": [2, 1, 10, 5],
    "yxyx": [1, 2, 5, 10],
    "xywh": [2, 1, 8, 4],
    "center_xywh": [6, 3, 8, 4],
    "center_yxhw": [3, 6, 4, 8],
    "rel_xyxy": [0.125, 0.125, 0.625, 0.625],
    "rel_yxyx": [0.125, 0.125, 0.625, 0.625],
    "rel_xywh": [0.125, 0.125, 0.5, 0.5],
    "rel_center_xywh": [0.375, 0.375, 0.5, 0.5],
}


def _outline_1px():
    """The one-pixel outline of the box (2, 1)-(10, 5), hand-placed."""
    expected = np.zeros((HEIGHT, WIDTH), dtype=int)
    expected[1, 2:11] = expected[5, 2:11] = 1  # top and bottom rows
    expected[1:6, 2] = expected[1:6, 10] = 1  # left and right columns
    return expected


def _draw(box, fmt="xyxy", labels=(0,), images=None, **kwargs):
    images = np.zeros((1, HEIGHT, WIDTH, 3), "uint8") if images is None else images
    boxes = {"boxes": np.array([box], "float32"), "labels": np.array([labels])}
    kwargs = {"color": RED, "line_thickness": 1, **kwargs}
    return draw_bounding_boxes(ops.convert_to_tensor(images), boxes, fmt, **kwargs)


@pytest.mark.parametrize("fmt", sorted(BOX))
def test_one_box_in_every_format_lands_on_the_same_pixels(fmt):
    drawn = _draw([BOX[fmt]], fmt)
    assert isinstance(drawn, np.ndarray) and drawn.dtype == np.uint8
    np.testing.assert_array_equal(drawn[0, :, :, 0] == 255, _outline_1px())
    assert not drawn[..., 1:].any()  # red only


def test_thick_outlines_are_bands_centred_on_the_edges():
    drawn = _draw([BOX["xyxy"]], line_thickness=2)[0, :, :, 0] > 0
    expected = np.zeros((HEIGHT, WIDTH), dtype=bool)
    expected[0:2, 1:11] = expected[4:6, 1:11] = True  # rows y-1..y of the top and bottom
    expected[0:6, 1:3] = expected[0:6, 9:11] = True  # columns x-1..x of the sides
    np.testing.assert_array_equal(drawn, expected)
    three = _draw([BOX["xyxy"]], line_thickness=3)[0, :, :, 0] > 0
    expected[0:7, 1:12] = True
    expected[3, 4:9] = False  # bands y-1..y+1 and x-1..x+1 leave a 1 x 5 hole
    np.testing.assert_array_equal(three, expected)


def test_negative_thickness_fills_and_outside_parts_are_clipped():
    filled = _draw([BOX["xyxy"]], line_thickness=-1)[0, :, :, 0] > 0
    expected = np.zeros((HEIGHT, WIDTH), dtype=bool)
    expected[1:6, 2:11] = True
    np.testing.assert_array_equal(filled, expected)
    corner = _draw([[-3, -3, 3, 3]])[0, :, :, 0] > 0
    expected[:] = False
    expected[3, 0:4] = expected[0:4, 3] = True  # only the bottom and right sides are inside
    np.testing.assert_array_equal(corner, expected)


def test_padding_boxes_are_skipped_and_other_pixels_are_kept():
    images = np.full((1, HEIGHT, WIDTH, 3), 7, "uint8")
    drawn = _draw([BOX["xyxy"], [0, 0, 15, 7]], labels=(3, -1), images=images)
    outline = _outline_1px().astype(bool)
    np.testing.assert_array_equal(drawn[0][outline], np.tile(RED, (outline.sum(), 1)))
    assert (drawn[0][~outline] == 7).all()


def test_float_images_are_scaled_like_keras():
    unit = _draw([BOX["xyxy"]], images=np.full((1, HEIGHT, WIDTH, 3), 0.5, "float32"))
    assert unit[0, 0, 0].tolist() == [127, 127, 127]  # [0, 1] images: * 255, truncated
    wide = _draw([BOX["xyxy"]], images=np.full((1, HEIGHT, WIDTH, 3), 300.0, "float32"))
    assert wide[0, 0, 0].tolist() == [255, 255, 255]  # others: clipped to [0, 255]


def test_channels_first_and_single_channel_images_keep_their_layout():
    images = np.zeros((1, 3, HEIGHT, WIDTH), "uint8")
    drawn = _draw([BOX["xyxy"]], images=images, data_format="channels_first")
    assert drawn.shape == images.shape
    np.testing.assert_array_equal(drawn[0, 0] == 255, _outline_1px())
    gray = _draw([BOX["xyxy"]], images=np.zeros((1, HEIGHT, WIDTH, 1), "uint8"))
    assert gray.shape == (1, HEIGHT, WIDTH, 1)
    np.testing.assert_array_equal(gray[0, :, :, 0] == 255, _outline_1px())


def test_labels_need_opencv(monkeypatch):
    monkeypatch.setitem(sys.modules, "cv2", None)  # as if OpenCV were not installed
    with pytest.raises(ImportError, match="pip install opencv-python"):
        _draw([BOX["xyxy"]], class_mapping={0: "cat"})
    _draw([BOX["xyxy"]], class_mapping={5: "dog"})  # no box of class 5: no label, no OpenCV


def test_labels_are_written_with_opencv(cv2):  # noqa: F811 (the fixture)
    boxes = {
        "boxes": np.array([[BOX["xyxy"], [2, 7, 10, 7]]], "float32"),
        "labels": np.array([[0, 1]]),
        "confidences": np.array([[0.875, 0.5]], "float32"),
    }
    images = np.zeros((1, 40, WIDTH, 3), "uint8")
    draw_bounding_boxes(images, boxes, "xyxy", class_mapping={0: "cat"}, font_scale=0.5)
    # one label (class 1 has no name); no room above y=1, so inside: (2 + 3, 1 + 2 * 6 + 1 + 3)
    assert cv2.texts == [("cat | 0.88", (5, 17), 0.5, (128.0, 128.0, 128.0), 1)]
    assert text_origin(4, 40, 1.0, 1) == (4, 32)  # room above: 8 pixels above the corner


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="4D"):
        draw_bounding_boxes(np.zeros((8, 8, 3)), {"boxes": [], "labels": []}, "xyxy")
    with pytest.raises(TypeError, match="should be a dict"):
        draw_bounding_boxes(np.zeros((1, 8, 8, 3)), [[0, 0, 1, 1]], "xyxy")
    with pytest.raises(ValueError, match="'boxes' and 'labels'"):
        draw_bounding_boxes(np.zeros((1, 8, 8, 3)), {"boxes": np.zeros((1, 1, 4))}, "xyxy")
