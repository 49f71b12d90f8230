"""`MixUp`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.mix_up import MixUp


def test_passes_the_shared_checks():
    checks.check_all(MixUp, {"alpha": 0.4}, checks.images())


def _partners(out, x):
    """For each output image, the weight w and partner index j with out = w x_i + (1-w) x_j."""
    found = []
    for i, o in enumerate(out):
        for j in range(len(x)):
            if i == j:
                continue
            w = np.sum((o - x[j]) * (x[i] - x[j])) / np.sum((x[i] - x[j]) ** 2)
            if np.allclose(o, w * x[i] + (1 - w) * x[j], atol=1e-3):
                found.append((w, j))
                break
        else:
            found.append((1.0, i) if np.allclose(o, x[i], atol=1e-3) else None)
    return found


def test_images_and_labels_are_mixed_with_one_weight_and_partner():
    x = checks.images(batch=6, height=4, width=5)
    labels = np.eye(6, dtype="float32")
    out = MixUp(alpha=0.8, seed=3)({"images": x, "labels": labels}, training=True)
    images, mixed = checks.to_numpy(out["images"]), checks.to_numpy(out["labels"])
    partners = _partners(images, x)
    assert all(p is not None for p in partners)
    for i, (w, j) in enumerate(partners):
        expected = w * labels[i] + (1 - w) * labels[j]
        np.testing.assert_allclose(mixed[i], expected, atol=1e-4)
        assert 0.0 <= w <= 1.0
    np.testing.assert_allclose(mixed.sum(axis=1), 1.0, atol=1e-5)
    assert sorted(j for _, j in partners) == list(range(6))  # a permutation of the batch


def test_bounding_boxes_of_both_images_are_kept():
    x = checks.images(batch=2, height=4, width=4)
    boxes = {
        "boxes": np.array([[[0, 0, 1, 1]], [[2, 2, 3, 3]]], "float32"),
        "labels": np.array([[1], [2]], "float32"),
    }
    out = MixUp(seed=1)({"images": x, "bounding_boxes": boxes}, training=True)["bounding_boxes"]
    assert checks.to_numpy(out["boxes"]).shape == (2, 2, 4)
    assert sorted(checks.to_numpy(out["labels"])[:, 1].tolist()) == [1.0, 2.0]


def test_rejects_a_non_positive_alpha():
    with pytest.raises(ValueError, match="MixUp 'm': alpha must be a positive number"):
        MixUp(alpha=0.0, name="m")
