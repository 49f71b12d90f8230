"""`RandomShear`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_shear import RandomShear


def test_passes_the_shared_checks():
    checks.check_all(RandomShear, {"x_factor": 0.3, "y_factor": (0.1, 0.2)}, checks.images())


def _sheared(image, amount):
    """Output (y, x) reads input (y, x + amount * y), 0 outside."""
    out = np.zeros_like(image)
    for y in range(image.shape[0]):
        for x in range(image.shape[1]):
            if 0 <= x + amount * y < image.shape[1]:
                out[y, x] = image[y, x + amount * y]
    return out


def _signs(out, x):
    """Per image, the shear sign (+1 or -1) whose hand-computed result it equals, else 0."""

    def sign(o, i):
        return (
            1
            if np.allclose(o, _sheared(i, 1), atol=1e-3)
            else -1
            if np.allclose(o, _sheared(i, -1), atol=1e-3)
            else 0
        )

    return [sign(o, i) for o, i in zip(checks.to_numpy(out), x)]


def test_a_unit_shear_along_x_either_way():
    x = checks.images(batch=8, height=4, width=6)
    signs = _signs(
        RandomShear(x_factor=(1.0, 1.0), fill_mode="constant", seed=2)(x, training=True), x
    )
    assert 0 not in signs and len(set(signs)) == 2


def test_boxes_move_with_a_shear():
    x = checks.images(batch=8, height=4, width=6)
    boxes = {"boxes": np.array([[[2, 1, 3, 2]]] * 8, "float32"), "labels": np.ones((8, 1))}
    layer = RandomShear(
        x_factor=(1.0, 1.0), fill_mode="constant", bounding_box_format="xyxy", seed=2
    )
    out = layer({"images": x, "bounding_boxes": boxes}, training=True)
    # a corner (x, y) goes to x - sign * (y - 1/2): pixel centers sit at half-integers
    expected = {1: [0.5, 1, 2.5, 2], -1: [2.5, 1, 4.5, 2]}
    for sign, box in zip(_signs(out["images"], x), checks.to_numpy(out["bounding_boxes"]["boxes"])):
        np.testing.assert_allclose(box[0], expected[sign], atol=1e-4)


def test_factors_keep_their_given_form_in_the_config():
    layer = RandomShear(x_factor=0.3, y_factor=(0.1, 0.2))
    assert layer.x_range == (-0.3, 0.3) and layer.y_range == (0.1, 0.2)
    assert RandomShear.from_config(layer.get_config()).x_factor == 0.3
    with pytest.raises(
        ValueError, match=r"x_factor must be a number or a pair of numbers in \[0.0, 1.0\]"
    ):
        RandomShear(x_factor=-0.1)
