"""`RandomFlip`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image import RandomFlip


@pytest.mark.parametrize("mode", ["horizontal", "vertical", "horizontal_and_vertical"])
def test_passes_the_shared_checks(mode):
    checks.check_all(RandomFlip, {"mode": mode}, checks.images())


@pytest.mark.parametrize(
    "mode, flip_axes",
    [("horizontal", (1,)), ("vertical", (0,)), ("horizontal_and_vertical", (0, 1))],
)
def test_each_image_is_flipped_or_kept(mode, flip_axes):
    x = checks.images(batch=16, height=3, width=4, channels=1)
    out = checks.to_numpy(RandomFlip(mode, seed=2)(x, training=True))
    flipped = [np.array_equal(o, np.flip(i, axis=flip_axes)) for o, i in zip(out, x)]
    kept = [np.array_equal(o, i) for o, i in zip(out, x)]
    assert all(f != k for f, k in zip(flipped, kept))
    assert 0 < sum(flipped) < 16


def test_masks_move_with_their_images():
    x = checks.images(batch=8, height=3, width=4, channels=1)
    out = RandomFlip("horizontal", seed=4)(
        {"images": x, "segmentation_masks": x[..., :1]}, training=True
    )
    np.testing.assert_array_equal(
        checks.to_numpy(out["segmentation_masks"]), checks.to_numpy(out["images"])
    )


def test_rejects_an_unknown_mode():
    with pytest.raises(ValueError, match="RandomFlip 'flip': mode must be one of"):
        RandomFlip("diagonal", name="flip")


def test_rejects_images_of_the_wrong_rank():
    with pytest.raises(ValueError, match="expected images of rank 3"):
        RandomFlip(seed=1)(np.zeros((2, 3), "float32"), training=True)
