"""image_dataset_from_directory on folders of real PNG/JPEG files, in both return formats."""

import os

import numpy as np
import pytest

from tests.data.builder_files import (
    FORMATS,
    PIL_Image,
    batches,
    fit_or_predict,
    flat_dense,
    needs_tf,
    write_images,
)
from tripod.data import formats
from tripod.data.array_dataset import ArrayDataset
from tripod.data.image_dataset import image_dataset_from_directory

SIZE = (6, 8)


@pytest.fixture
def tree_of_images(tmp_path):
    written = write_images(str(tmp_path), {"cats": 3, "dogs": 2, "emus": 2}, size=SIZE)
    return str(tmp_path), written


def load(directory, **kwargs):
    kwargs.setdefault("image_size", SIZE)
    kwargs.setdefault("verbose", False)
    return image_dataset_from_directory(directory, **kwargs)


def stacked(dataset):
    """(all images, all labels) of one pass, concatenated over the batches."""
    parts = batches(dataset)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


@pytest.mark.parametrize("format", FORMATS)
def test_inferred_classes_labels_and_exact_pixels(tree_of_images, format):
    directory, written = tree_of_images
    ds = load(directory, batch_size=4, shuffle=False, format=format)
    assert ds.class_names == ["cats", "dogs", "emus"]
    assert ds.file_paths == sorted(written)  # unshuffled: alphanumeric order
    assert len(ds) == 2
    images, labels = stacked(ds)
    assert images.shape == (7, *SIZE, 3) and images.dtype == np.float32
    assert labels.dtype == np.int32 and labels.tolist() == [0, 0, 0, 1, 1, 2, 2]
    # Resizing to the file's own size changes nothing.
    np.testing.assert_array_equal(images, np.stack([written[p] for p in ds.file_paths]))


@pytest.mark.parametrize("format", FORMATS)
def test_label_modes(tree_of_images, format):
    directory, _ = tree_of_images
    _, categorical = stacked(
        load(directory, label_mode="categorical", shuffle=False, format=format)
    )
    assert categorical.dtype == np.float32
    np.testing.assert_array_equal(categorical, np.eye(3, dtype="float32")[[0, 0, 0, 1, 1, 2, 2]])
    only_images = batches(load(directory, label_mode=None, shuffle=False, format=format))
    assert only_images[0].shape == (7, *SIZE, 3)
    binary = load(
        directory, label_mode="binary", class_names=["dogs", "cats"], shuffle=False, format=format
    )
    _, labels = stacked(binary)
    assert binary.class_names == ["dogs", "cats"]
    np.testing.assert_array_equal(labels, np.array([[0], [0], [1], [1], [1]], "float32"))
    with pytest.raises(ValueError, match="exactly 2"):
        load(directory, label_mode="binary", format=format)


@pytest.mark.parametrize("format", FORMATS)
def test_explicit_labels_follow_the_sorted_paths(tree_of_images, format):
    directory, _ = tree_of_images
    ds = load(directory, labels=[1, 0, 1, 0, 1, 0, 1], shuffle=False, format=format)
    assert ds.class_names == ["0", "1"]
    assert stacked(ds)[1].tolist() == [1, 0, 1, 0, 1, 0, 1]
    with pytest.raises(ValueError, match="7 files"):
        load(directory, labels=[0, 1], format=format)
    with pytest.raises(ValueError, match="class_names"):
        load(directory, labels=[0] * 7, class_names=["a"], format=format)


def test_bad_arguments_name_what_is_wrong(tree_of_images):
    directory, _ = tree_of_images
    cases = [
        ({"class_names": ["cats", "wolves"]}, "subset of"),
        ({"color_mode": "cmyk"}, "color_mode"),
        ({"label_mode": "sparse"}, "label_mode"),
        ({"image_size": (1, 2, 3)}, "image_size"),
        ({"interpolation": "cubic-ish"}, "interpolation"),
        ({"crop_to_aspect_ratio": True, "pad_to_aspect_ratio": True}, "Only one"),
        ({"validation_split": 0.2}, "subset"),
        ({"validation_split": 0.2, "subset": "training"}, "seed"),
        ({"validation_split": 1.5, "subset": "training", "seed": 1}, "between 0 and 1"),
        ({"format": "grain"}, "format"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ValueError, match=message):
            load(directory, **kwargs)


@pytest.mark.parametrize("format", FORMATS)
def test_validation_split_is_disjoint_complete_and_seeded(tree_of_images, format):
    directory, written = tree_of_images
    train, val = load(directory, validation_split=0.3, subset="both", seed=7, format=format)
    assert len(train.file_paths) == 5 and len(val.file_paths) == 2
    assert set(train.file_paths).isdisjoint(val.file_paths)
    assert set(train.file_paths) | set(val.file_paths) == set(written)
    again = load(directory, validation_split=0.3, subset="validation", seed=7, format=format)
    assert again.file_paths == val.file_paths
    # Each image keeps its own label through the shuffles.
    for images, labels in batches(train) + batches(val):
        for image, label in zip(images, labels):
            path = next(p for p, pixels in written.items() if np.array_equal(pixels, image))
            assert train.class_names[label] == os.path.basename(os.path.dirname(path))


def test_tripod_format_reshuffles_each_epoch_reproducibly(tree_of_images):
    directory, _ = tree_of_images

    def epochs(seed):
        ds = load(directory, batch_size=7, seed=seed, format="tripod")
        return [stacked(ds)[0].sum(axis=(1, 2, 3)).tolist() for _ in range(3)]

    first = epochs(3)
    assert first == epochs(3)
    assert first[0] != first[1] or first[1] != first[2]
    assert sorted(first[0]) == sorted(first[1])


@pytest.mark.parametrize("format", FORMATS)
def test_resizing_modes_layouts_and_color_modes(tmp_path, format):
    pixels = np.arange(4 * 8 * 3, dtype=np.uint8).reshape(4, 8, 3) * 2
    os.makedirs(tmp_path / "a")
    PIL_Image.fromarray(pixels).save(tmp_path / "a" / "wide.png")
    common = {"label_mode": None, "shuffle": False, "format": format}
    cropped = batches(
        load(
            str(tmp_path),
            image_size=(4, 4),
            crop_to_aspect_ratio=True,
            interpolation="nearest",
            **common,
        )
    )[0]
    np.testing.assert_array_equal(cropped[0], pixels[:, 2:6])  # the centred 4x4 window
    padded = batches(
        load(
            str(tmp_path),
            image_size=(8, 8),
            pad_to_aspect_ratio=True,
            interpolation="nearest",
            **common,
        )
    )[0]
    np.testing.assert_array_equal(padded[0][2:6], pixels)  # centred, zero rows around
    assert not padded[0][:2].any() and not padded[0][6:].any()
    first = batches(
        load(
            str(tmp_path),
            image_size=(3, 5),
            data_format="channels_first",
            color_mode="rgba",
            **common,
        )
    )[0]
    assert first.shape == (1, 4, 3, 5)
    np.testing.assert_array_equal(first[:, 3], 255.0)  # opaque alpha
    PIL_Image.fromarray(pixels).save(tmp_path / "a" / "wide.jpg", quality=95)
    gray = batches(load(str(tmp_path), color_mode="grayscale", image_size=(4, 8), **common))[0]
    assert gray.shape == (2, 4, 8, 1)
    expected = pixels @ np.array([0.299, 0.587, 0.114])
    np.testing.assert_allclose(gray[1, :, :, 0], expected, atol=1.5)  # wide.png
    np.testing.assert_allclose(gray[0, :, :, 0], expected, atol=8)  # wide.jpg, lossy


@needs_tf
@pytest.mark.parametrize(
    "kwargs",
    [
        {"image_size": (5, 3)},
        {"image_size": (5, 3), "crop_to_aspect_ratio": True},
        {"image_size": (9, 4), "pad_to_aspect_ratio": True, "interpolation": "bicubic"},
        {"image_size": (4, 4), "interpolation": "area", "data_format": "channels_first"},
    ],
)
def test_both_formats_give_the_same_images(tree_of_images, kwargs):
    directory, _ = tree_of_images
    tf_ds = load(directory, shuffle=False, format="tf", **kwargs)
    tripod_ds = load(directory, shuffle=False, format="tripod", **kwargs)
    assert type(tf_ds).__module__.startswith("tensorflow")
    np.testing.assert_allclose(stacked(tf_ds)[0], stacked(tripod_ds)[0], atol=1e-3)


def test_without_tensorflow_the_default_format_is_an_array_dataset(tree_of_images, monkeypatch):
    monkeypatch.setattr(formats, "tensorflow_installed", lambda: False)
    ds = load(tree_of_images[0], shuffle=False)
    assert isinstance(ds, ArrayDataset) and ds.class_names == ["cats", "dogs", "emus"]


@pytest.mark.parametrize("format", FORMATS)
def test_model_trains_and_predicts_on_the_dataset(tree_of_images, format):
    directory, _ = tree_of_images
    ds = load(directory, batch_size=3, seed=1, format=format, image_size=(4, 4))
    predictions = fit_or_predict(ds, flat_dense(3), "sparse_categorical_crossentropy")
    assert predictions.shape == (7, 3)
