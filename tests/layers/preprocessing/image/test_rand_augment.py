"""`RandAugment`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.rand_augment import OPERATIONS, RandAugment


def test_passes_the_shared_checks():
    checks.check_all(RandAugment, {"factor": 0.3}, checks.images())


@pytest.mark.parametrize("num_ops", [1, 2])
def test_applies_the_drawn_operations_in_a_row(num_ops):
    x = checks.images()
    layer = RandAugment(num_ops=num_ops, seed=6)
    transformation = layer.get_random_transformation({"images": x})
    out = checks.to_numpy(layer.transform_images(x, transformation))
    expected = x
    for index in checks.to_numpy(transformation["layer_idxes"]):
        name = OPERATIONS[int(index)]
        expected = layer.augmentations[name].transform_images(
            expected, transformation["transforms"][name]
        )
    np.testing.assert_allclose(out, checks.to_numpy(expected), rtol=1e-5, atol=1e-3)


def test_outputs_stay_in_value_range_and_masks_keep_their_shape():
    x = checks.images(batch=4, low=0, high=1)
    out = RandAugment(value_range=(0, 1), num_ops=3, factor=0.8, seed=2)(
        {"images": x, "segmentation_masks": x[..., :1]}, training=True
    )
    images = checks.to_numpy(out["images"])
    assert images.min() >= -1e-5 and images.max() <= 1 + 1e-5
    assert checks.to_numpy(out["segmentation_masks"]).shape == (4, 8, 10, 1)


def test_no_operations_is_the_identity():
    x = checks.images()
    np.testing.assert_allclose(checks.to_numpy(RandAugment(num_ops=0, seed=1)(x, training=True)), x)


def test_rejects_bad_arguments():
    with pytest.raises(ValueError, match="RandAugment 'r': num_ops must be"):
        RandAugment(num_ops=-1, name="r")
    with pytest.raises(ValueError, match="RandAugment 'r': factor must be"):
        RandAugment(factor=1.5, name="r")
    with pytest.raises(ValueError, match="RandAugment 'r': interpolation must be one of"):
        RandAugment(interpolation="cubic", name="r")
