"""text_dataset_from_directory on folders of real .txt files, in both return formats."""

import numpy as np
import pytest

from tests.data.builder_files import FORMATS, batches, fit_or_predict, write_texts
from tripod import layers
from tripod.data.text_dataset import text_dataset_from_directory


@pytest.fixture
def tree_of_texts(tmp_path):
    return str(tmp_path), write_texts(str(tmp_path), {"neg": 3, "pos": 2})


def texts(batch):
    """A batch of texts as Python strings (tf.string batches hold bytes)."""
    return [t.decode() if isinstance(t, bytes) else t for t in batch.tolist()]


def load(directory, **kwargs):
    kwargs.setdefault("verbose", False)
    return text_dataset_from_directory(directory, **kwargs)


@pytest.mark.parametrize("format", FORMATS)
def test_texts_labels_and_class_names(tree_of_texts, format):
    directory, written = tree_of_texts
    ds = load(directory, batch_size=2, shuffle=False, format=format)
    assert ds.class_names == ["neg", "pos"] and len(ds) == 3
    parts = batches(ds)
    assert [t for x, _ in parts for t in texts(x)] == [written[p] for p in sorted(written)]
    labels = np.concatenate([y for _, y in parts])
    assert labels.dtype == np.int32 and labels.tolist() == [0, 0, 0, 1, 1]


@pytest.mark.parametrize("format", FORMATS)
def test_max_length_label_modes_and_no_labels(tree_of_texts, format):
    directory, _ = tree_of_texts
    ((x, y),) = batches(
        load(directory, max_length=5, label_mode="binary", shuffle=False, format=format)
    )
    assert texts(x) == ["neg s"] * 3 + ["pos s"] * 2
    np.testing.assert_array_equal(y, np.array([[0], [0], [0], [1], [1]], "float32"))
    ((x, y),) = batches(load(directory, label_mode="categorical", shuffle=False, format=format))
    np.testing.assert_array_equal(y, np.eye(2, dtype="float32")[[0, 0, 0, 1, 1]])
    (x,) = batches(load(directory, labels=None, shuffle=False, format=format))
    assert len(texts(x)) == 5
    with pytest.raises(ValueError, match="max_length"):
        load(directory, max_length=-1, format=format)


@pytest.mark.parametrize("format", FORMATS)
def test_validation_split_is_disjoint_and_pairs_texts_with_labels(tree_of_texts, format):
    directory, written = tree_of_texts
    train, val = load(directory, validation_split=0.4, subset="both", seed=3, format=format)
    assert len(train.file_paths) == 3 and len(val.file_paths) == 2
    assert set(train.file_paths) | set(val.file_paths) == set(written)
    assert set(train.file_paths).isdisjoint(val.file_paths)
    for ds in (train, val):
        for x, y in batches(ds):
            for text, label in zip(texts(x), y):
                assert text.startswith(ds.class_names[label])


def text_lengths(x, y):
    """Each text's length as a float feature (strings cannot enter a compiled step)."""
    if isinstance(x, np.ndarray):
        return np.array([[len(t)] for t in x], "float32"), y
    tf = pytest.importorskip("tensorflow")
    return tf.cast(tf.strings.length(x)[:, None], "float32"), y


@pytest.mark.parametrize("format", FORMATS)
def test_model_trains_on_the_mapped_text_dataset(tree_of_texts, format):
    directory, _ = tree_of_texts
    ds = load(directory, batch_size=2, seed=0, format=format).map(text_lengths)
    (x, y), *_ = batches(ds)
    assert x.tolist() == [[12.0], [12.0]] and y.shape == (2,)
    predictions = fit_or_predict(ds, [layers.Dense(1)], "mse")
    assert predictions.shape == (5, 1)
