"""`draw_segmentation_masks`: colours blended with hand-computed values, the default palette,
ignored pixels, painting without blending, layouts and argument checks."""

import numpy as np
import pytest

from tripod import ops
from tripod.data.visualization.masks import draw_segmentation_masks, palette

COLORS = {0: (0, 0, 0), 1: (200, 100, 0), 2: (10, 20, 30)}
#: class 5 lies outside three classes and -1 is ignored: both keep the image
MASKS = np.array([[[0, 1, 2], [-1, 1, 5]]], dtype="int32")


def _images(value=100, dtype="uint8"):
    return np.full((1, 2, 3, 3), value, dtype)


def test_blended_colours_match_hand_computed_values():
    drawn = draw_segmentation_masks(
        ops.convert_to_tensor(_images()),
        ops.convert_to_tensor(MASKS),
        num_classes=3,
        color_mapping=COLORS,
        alpha=0.5,
    )
    assert isinstance(drawn, np.ndarray) and drawn.dtype == np.uint8
    # 100 * 0.5 + colour * 0.5 where a class is drawn
    expected = [
        [[50, 50, 50], [150, 100, 50], [55, 60, 65]],
        [[100, 100, 100], [150, 100, 50], [100, 100, 100]],
    ]
    assert drawn[0].tolist() == expected


def test_default_alpha_and_palette():
    # the palette: (i * (2^25 - 1, 2^15 - 1, 2^21 - 1)) % 255
    assert palette(4) == [[0, 0, 0], [1, 127, 31], [2, 254, 62], [3, 126, 93]]
    drawn = draw_segmentation_masks(_images(), MASKS)  # 6 classes inferred (largest 5, plus 1)
    # alpha 0.8: 100 * 0.2 + colour * 0.8, truncated
    assert drawn[0, 0].tolist() == [[20, 20, 20], [20, 121, 44], [21, 223, 69]]
    assert drawn[0, 1, 0].tolist() == [100, 100, 100]  # ignored


def test_painting_without_blending_keeps_float32():
    drawn = draw_segmentation_masks(
        _images(), MASKS, num_classes=3, color_mapping=COLORS, blend=False
    )
    assert drawn.dtype == np.float32
    assert drawn[0].tolist() == [
        [[0, 0, 0], [200, 100, 0], [10, 20, 30]],
        [[100, 100, 100], [200, 100, 0], [100, 100, 100]],
    ]


def test_channels_first_and_masks_with_a_channel_axis():
    images = np.transpose(_images(), (0, 3, 1, 2))
    kwargs = {"num_classes": 3, "color_mapping": COLORS, "alpha": 0.5}
    first = draw_segmentation_masks(images, MASKS[:, None], data_format="channels_first", **kwargs)
    assert first.shape == images.shape
    last = draw_segmentation_masks(_images(), MASKS[..., None], **kwargs)
    np.testing.assert_array_equal(np.transpose(first, (0, 2, 3, 1)), last)


def test_all_ignored_draws_nothing_and_bad_arguments_raise():
    drawn = draw_segmentation_masks(_images(), np.full((1, 2, 3), -1))
    assert (drawn == 100).all()
    with pytest.raises(TypeError, match="integer dtype"):
        draw_segmentation_masks(_images(), MASKS.astype("float32"))
    with pytest.raises(ValueError, match="4D"):
        draw_segmentation_masks(_images()[0], MASKS)
