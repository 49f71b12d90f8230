"""`RandomZoom`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing import random_draws
from tripod.layers.preprocessing.image.random_zoom import RandomZoom


def test_passes_the_shared_checks():
    checks.check_all(
        RandomZoom, {"height_factor": (-0.4, 0.3), "width_factor": 0.2}, checks.images()
    )


def test_zooming_in_twice_reads_the_center_and_scales_boxes():
    x = checks.images(batch=1, height=9, width=9)
    layer = RandomZoom((-0.5, -0.5), interpolation="nearest", bounding_box_format="xyxy", seed=1)
    boxes = {"boxes": np.array([[[2.5, 3.5, 5.5, 4.5]]], "float32"), "labels": np.array([[1]])}
    out = layer({"images": x, "bounding_boxes": boxes}, training=True)
    # output pixel i reads input 4 + (i - 4) / 2 (nearest, halves round up)
    source = np.floor(4 + (np.arange(9) - 4) / 2 + 0.5).astype(int)
    np.testing.assert_allclose(
        checks.to_numpy(out["images"]), x[:, source][:, :, source], atol=1e-4
    )
    # box coordinates scale by 2 about the image center 4.5
    np.testing.assert_allclose(
        checks.to_numpy(out["bounding_boxes"]["boxes"]), [[[0.5, 2.5, 6.5, 4.5]]], atol=1e-4
    )


def test_width_factor_none_keeps_the_aspect_ratio():
    x = np.tile(np.arange(10, dtype="float32"), (1, 10, 1))[..., None]
    out = checks.to_numpy(
        RandomZoom(0.5, seed=3)(np.concatenate([x, np.swapaxes(x, 1, 2)], -1), training=True)
    )
    np.testing.assert_allclose(out[0, :, :, 0], np.swapaxes(out[0, :, :, 1], 0, 1), atol=1e-4)


def test_rejects_a_factor_of_minus_one():
    with pytest.raises(
        ValueError, match=r"height_factor must be a number or a pair of numbers in \(-1.0, 1.0\]"
    ):
        RandomZoom(-1.0)


def test_a_factor_of_one_never_draws_a_zero_scale(monkeypatch):
    """As in Keras, 1.0 gives z in [-1, 1], yet the lowest draw is a positive scale, not 0."""
    layer = RandomZoom(1.0, seed=0)
    assert layer.height_range == (-1.0, 1.0)
    monkeypatch.setattr(
        random_draws, "random_bits", lambda ops, key, shape: ops.zeros(shape, dtype="int32")
    )
    transform = layer.get_random_transformation(checks.images(), training=True)["transform"]
    # the lowest draw: one step of the range 2 / 2**24 above 1 + (-1) = 0
    np.testing.assert_array_equal(checks.to_numpy(transform)[:, [0, 4]], np.full((2, 2), 2.0**-23))
