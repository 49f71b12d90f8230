"""`bounding_boxes.convert_format` against hand-computed boxes."""

import numpy as np
import pytest

from tests.layers.preprocessing.image.checks import to_numpy
from tripod.layers.preprocessing.image.bounding_boxes import SUPPORTED_FORMATS, convert_format

HEIGHT, WIDTH = 200.0, 100.0
XYXY = np.array([[10.0, 20.0, 30.0, 60.0], [0.0, 0.0, 100.0, 200.0]], "float32")
EXPECTED = {
    "xyxy": XYXY,
    "yxyx": [[20, 10, 60, 30], [0, 0, 200, 100]],
    "xywh": [[10, 20, 20, 40], [0, 0, 100, 200]],
    "center_xywh": [[20, 40, 20, 40], [50, 100, 100, 200]],
    "center_yxhw": [[40, 20, 40, 20], [100, 50, 200, 100]],
    "rel_xyxy": [[0.1, 0.1, 0.3, 0.3], [0, 0, 1, 1]],
    "rel_yxyx": [[0.1, 0.1, 0.3, 0.3], [0, 0, 1, 1]],
    "rel_xywh": [[0.1, 0.1, 0.2, 0.2], [0, 0, 1, 1]],
    "rel_center_xywh": [[0.2, 0.2, 0.2, 0.2], [0.5, 0.5, 1, 1]],
}


@pytest.mark.parametrize("target", SUPPORTED_FORMATS)
def test_from_xyxy_and_back(target):
    out = to_numpy(convert_format(XYXY, "xyxy", target, height=HEIGHT, width=WIDTH))
    np.testing.assert_allclose(out, np.asarray(EXPECTED[target], "float32"), rtol=1e-6, atol=1e-6)
    back = to_numpy(convert_format(out, target.upper(), "xyxy", height=HEIGHT, width=WIDTH))
    np.testing.assert_allclose(back, XYXY, rtol=1e-5, atol=1e-4)


def test_between_two_relative_formats_needs_sizes_but_does_not_scale():
    out = convert_format(
        np.array(EXPECTED["rel_xyxy"], "float32"), "rel_xyxy", "rel_xywh", height=1, width=1
    )
    np.testing.assert_allclose(to_numpy(out), EXPECTED["rel_xywh"], atol=1e-6)


def test_a_dict_keeps_its_labels_and_batched_boxes_convert():
    boxes = {"boxes": np.stack([XYXY, XYXY]), "labels": np.array([[1, 2], [3, 4]])}
    out = convert_format(boxes, "xyxy", "center_xywh")
    assert to_numpy(out["boxes"]).shape == (2, 2, 4)
    np.testing.assert_allclose(to_numpy(out["boxes"])[1], EXPECTED["center_xywh"])
    np.testing.assert_array_equal(to_numpy(out["labels"]), boxes["labels"])


def test_integer_boxes_come_back_as_floats():
    out = to_numpy(convert_format(np.array([[10, 20, 30, 40]]), "xyxy", "xywh"))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [[10, 20, 20, 20]])


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="unknown bounding box format 'xyz'"):
        convert_format(XYXY, "xyz", "xyxy")
    with pytest.raises(ValueError, match="needs the image height and width"):
        convert_format(XYXY, "xyxy", "rel_xyxy")
    with pytest.raises(ValueError, match="last axis of size 4"):
        convert_format(np.zeros((2, 3)), "xyxy", "xywh")
