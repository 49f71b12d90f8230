"""`tripod.preprocessing`: Keras's legacy namespace, so that code written for it (keras.io's
timeseries examples call `keras.preprocessing.timeseries_dataset_from_array`) runs."""

import numpy as np

import tripod
from tripod import ops


def test_the_legacy_names_are_tripods_own():
    legacy, utils = tripod.preprocessing, tripod.utils
    assert legacy.timeseries_dataset_from_array is utils.timeseries_dataset_from_array
    assert legacy.image_dataset_from_directory is utils.image_dataset_from_directory
    assert legacy.text_dataset_from_directory is utils.text_dataset_from_directory
    assert legacy.sequence.pad_sequences is utils.pad_sequences
    assert legacy.image.img_to_array is utils.img_to_array
    from tripod.preprocessing.sequence import pad_sequences

    assert pad_sequences([[1, 2], [3]], maxlen=2).tolist() == [[1, 2], [0, 3]]


def test_smart_resize_crops_the_center_to_the_aspect_ratio_then_resizes():
    """A 4x8 image to 2x2: the centered 4x4 crop (columns 2..5), halved by nearest sampling."""
    image = np.arange(4 * 8, dtype="float32").reshape(4, 8, 1)
    out = ops.convert_to_numpy(tripod.preprocessing.image.smart_resize(image, (2, 2), "nearest"))
    crop = image[:, 2:6, 0]
    assert out.shape == (2, 2, 1)
    np.testing.assert_array_equal(out[..., 0], crop[1::2, 1::2])
    batch = ops.convert_to_numpy(
        tripod.preprocessing.image.smart_resize(np.stack([image, image]), (2, 2), "nearest")
    )
    np.testing.assert_array_equal(batch[1], out)
