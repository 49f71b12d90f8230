"""`RandomPerspective`."""

import numpy as np
import pytest

import tripod
from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_perspective import RandomPerspective, projective_rows


def test_passes_the_shared_checks():
    checks.check_all(RandomPerspective, {"scale": 0.5}, checks.images())


def test_projective_rows_send_the_points_where_asked():
    source = np.array([[[0, 0], [9, 0], [0, 7], [9, 7]]], "float32")
    target = np.array([[[1, 0.5], [8, -1], [0.5, 6], [10, 7.5]]], "float32")
    rows = checks.to_numpy(projective_rows(tripod.backends.active(), source, target))[0]
    a0, a1, a2, b0, b1, b2, c0, c1 = rows
    for (x, y), (u, v) in zip(source[0], target[0]):
        scale = c0 * x + c1 * y + 1
        np.testing.assert_allclose(
            [(a0 * x + a1 * y + a2) / scale, (b0 * x + b1 * y + b2) / scale], [u, v], atol=1e-4
        )


@pytest.mark.parametrize("kwargs", [{"factor": 0.0}, {"scale": 0.0}])
def test_no_chance_or_no_scale_is_the_identity(kwargs):
    x = checks.images()
    boxes = {"boxes": np.array([[[1, 2, 5, 6]]] * 2, "float32"), "labels": np.ones((2, 1))}
    out = RandomPerspective(bounding_box_format="xyxy", seed=3, **kwargs)(
        {"images": x, "bounding_boxes": boxes}, training=True
    )
    np.testing.assert_allclose(checks.to_numpy(out["images"]), x, atol=1e-3)
    np.testing.assert_allclose(
        checks.to_numpy(out["bounding_boxes"]["boxes"]), boxes["boxes"], atol=1e-4
    )


def test_the_whole_image_box_follows_the_moved_corners():
    x = checks.images(batch=4)
    boxes = {"boxes": np.array([[[0, 0, 10, 8]]] * 4, "float32"), "labels": np.ones((4, 1))}
    layer = RandomPerspective(
        scale=0.4, interpolation="nearest", fill_value=-1.0, bounding_box_format="xyxy", seed=5
    )
    out = layer({"images": x, "bounding_boxes": boxes}, training=True)
    images, moved = checks.to_numpy(out["images"]), checks.to_numpy(out["bounding_boxes"]["boxes"])
    for image, (x1, y1, x2, y2) in zip(images, moved[:, 0]):
        # every pixel that still reads the image has its center inside the moved image box
        rows, cols = np.nonzero(image[..., 0] != -1.0)
        assert x1 - 1e-3 <= cols.min() + 0.5 and cols.max() + 0.5 <= x2 + 1e-3
        assert y1 - 1e-3 <= rows.min() + 0.5 and rows.max() + 0.5 <= y2 + 1e-3


def test_rejects_a_bad_scale():
    with pytest.raises(ValueError, match="scale must be a number in \\[0, 1\\]"):
        RandomPerspective(scale=1.5)
