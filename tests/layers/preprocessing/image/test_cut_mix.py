"""`CutMix`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.cut_mix import CutMix


def test_passes_the_shared_checks():
    checks.check_all(CutMix, {"factor": 0.8}, checks.images())


def test_a_rectangle_of_a_partner_is_pasted_and_labels_mixed_by_area():
    batch, height, width = 6, 8, 10
    x = np.arange(batch, dtype="float32").reshape(-1, 1, 1, 1) * np.ones(
        (1, height, width, 3), "float32"
    )
    labels = np.eye(batch, dtype="float32")
    out = CutMix(seed=4)({"images": x, "labels": labels}, training=True)
    images, mixed = checks.to_numpy(out["images"]), checks.to_numpy(out["labels"])
    pasted_any = False
    for i in range(batch):
        foreign = images[i, :, :, 0] != i
        partners = np.unique(images[i][foreign])
        assert len(partners) <= 1
        if foreign.any():
            pasted_any = True
            rows, cols = np.nonzero(foreign)
            block = foreign[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1]
            assert block.all()  # one axis-aligned rectangle
            j = int(partners[0])
            kept = mixed[i, i]
            np.testing.assert_allclose(mixed[i, j], 1.0 - kept, atol=1e-5)
            # the label weight is the continuous area kept, the pixels are its rasterization
            assert abs(foreign.mean() - (1.0 - kept)) <= (height + width + 1) / (height * width)
        np.testing.assert_allclose(mixed[i].sum(), 1.0, atol=1e-5)
    assert pasted_any


def test_segmentation_masks_are_pasted_like_images_and_keep_their_dtype():
    x = np.arange(4, dtype="float32").reshape(-1, 1, 1, 1) * np.ones((1, 6, 6, 1), "float32")
    masks = x.astype("int32")
    out = CutMix(seed=2)({"images": x, "segmentation_masks": masks}, training=True)
    got = checks.to_numpy(out["segmentation_masks"])
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, checks.to_numpy(out["images"]).astype("int32"))


@pytest.mark.parametrize("factor", [1.5, -0.1, (0.2, 0.3, 0.4), "big"])
def test_rejects_a_factor_outside_zero_one(factor):
    with pytest.raises(ValueError, match="CutMix .c.: factor must be a number or a pair"):
        CutMix(factor=factor, name="c")
