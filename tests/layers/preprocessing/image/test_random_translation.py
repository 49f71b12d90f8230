"""`RandomTranslation`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_translation import RandomTranslation


def test_passes_the_shared_checks():
    checks.check_all(
        RandomTranslation, {"height_factor": 0.2, "width_factor": (-0.3, 0.1)}, checks.images()
    )


def test_a_fixed_shift_moves_pixels_boxes_and_masks():
    x = checks.images(batch=2, height=8, width=10)
    layer = RandomTranslation(
        (0.25, 0.25),
        (-0.2, -0.2),
        fill_mode="constant",
        fill_value=-1.0,
        bounding_box_format="xyxy",
        seed=1,
    )
    boxes = {
        "boxes": np.array([[[1, 1, 4, 3]], [[6, 5, 9, 7]]], "float32"),
        "labels": np.array([[3], [4]]),
    }
    out = layer(
        {"images": x, "segmentation_masks": x[..., :1].astype("int32"), "bounding_boxes": boxes},
        training=True,
    )
    expected = np.full_like(x, -1.0)
    expected[:, 2:, :8] = x[:, :6, 2:]  # down 2 rows, left 2 columns
    np.testing.assert_allclose(checks.to_numpy(out["images"]), expected, atol=1e-3)
    masks = checks.to_numpy(out["segmentation_masks"])
    assert masks.dtype == np.int32
    np.testing.assert_array_equal(masks[:, 2:, :8], x[:, :6, 2:, :1].astype("int32"))
    np.testing.assert_allclose(
        checks.to_numpy(out["bounding_boxes"]["boxes"]), [[[0, 3, 2, 5]], [[4, 7, 7, 8]]], atol=1e-4
    )
    np.testing.assert_array_equal(checks.to_numpy(out["bounding_boxes"]["labels"]), [[3], [4]])


def test_boxes_need_a_format():
    boxes = {"boxes": np.zeros((2, 1, 4), "float32"), "labels": np.zeros((2, 1))}
    with pytest.raises(ValueError, match="has no bounding_box_format"):
        RandomTranslation(0.1, 0.1)(
            {"images": checks.images(), "bounding_boxes": boxes}, training=True
        )


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            {"height_factor": 1.5, "width_factor": 0.1},
            "height_factor must be a number or a pair of numbers in \\[-1.0, 1.0\\]",
        ),
        ({"height_factor": 0.1, "width_factor": (0.1, 0.2, 0.3)}, "width_factor must be"),
        (
            {"height_factor": 0.1, "width_factor": 0.1, "fill_mode": "mirror"},
            "fill_mode must be one of",
        ),
        (
            {"height_factor": 0.1, "width_factor": 0.1, "interpolation": "bicubic"},
            "interpolation must be one of",
        ),
    ],
)
def test_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        RandomTranslation(**kwargs)
