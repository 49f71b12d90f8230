"""`RandomElasticTransform`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.random_elastic_transform import RandomElasticTransform


def test_passes_the_shared_checks():
    checks.check_all(RandomElasticTransform, {"scale": 0.8}, checks.images(height=12, width=12))


def test_outputs_stay_in_the_value_range_and_masks_keep_their_labels():
    x = checks.images(batch=2, height=16, width=16, low=0, high=1)
    masks = np.random.RandomState(1).randint(0, 3, (2, 16, 16, 1)).astype("int32")
    out = RandomElasticTransform(value_range=(0.2, 0.8), seed=1)(
        {"images": x, "segmentation_masks": masks}, training=True
    )
    images = checks.to_numpy(out["images"])
    assert (
        images.min() >= 0.2
        and images.max() <= 0.8
        and not np.allclose(images, np.clip(x, 0.2, 0.8))
    )
    labels = checks.to_numpy(out["segmentation_masks"])
    assert labels.dtype == np.int32 and set(np.unique(labels)) <= {0, 1, 2}


def test_a_known_displacement_reads_the_next_row():
    x = checks.images(batch=2, height=4, width=5)
    layer = RandomElasticTransform(interpolation="nearest", fill_mode="nearest", seed=1)
    shift = {
        "applied": np.array([True, False]),
        "rows": np.ones((2, 4, 5), "float32"),
        "cols": np.zeros((2, 4, 5), "float32"),
    }
    out = checks.to_numpy(layer.transform_images(x, shift))
    np.testing.assert_allclose(out[0], x[0, [1, 2, 3, 3]], atol=1e-4)
    np.testing.assert_allclose(out[1], x[1], atol=1e-4)


def test_no_chance_is_the_identity():
    x = checks.images()
    np.testing.assert_allclose(
        checks.to_numpy(RandomElasticTransform(factor=0.0, seed=1)(x, training=True)), x, atol=1e-4
    )


def test_rejects_bad_arguments():
    with pytest.raises(
        ValueError, match="scale must be a number or a pair of numbers in \\[0.0, 1.0\\]"
    ):
        RandomElasticTransform(scale=2.0)
    with pytest.raises(ValueError, match="fill_mode must be one of"):
        RandomElasticTransform(fill_mode="edge")
