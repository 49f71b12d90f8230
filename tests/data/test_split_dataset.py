"""split_dataset: sizes, seeded disjoint and complete splits, and the returned kinds."""

import numpy as np
import pytest

from tests.data.builder_files import as_numpy, fit_or_predict, needs_tf
from tripod import layers
from tripod.data import split_dataset as split_module
from tripod.data.array_dataset import ArrayDataset
from tripod.data.split_dataset import split_dataset, split_sizes

X = np.arange(20, dtype="float32").reshape(10, 2)
Y = np.arange(10)


def rows(dataset):
    """The samples of a split (tf, tripod or torch) as a list of tuples of NumPy values."""
    items = (
        [dataset[i] for i in range(len(dataset))] if hasattr(dataset, "indices") else list(dataset)
    )
    out = []
    for item in items:
        leaves = item if isinstance(item, (tuple, list)) else (item,)
        out.append(tuple(as_numpy(leaf) for leaf in leaves))
    return out


@pytest.fixture(params=["tripod", "tf"])
def output(request, monkeypatch):
    """The kind of halves split_dataset returns when not asked for torch data sets."""
    if request.param == "tripod":
        monkeypatch.setattr(split_module, "tensorflow_installed", lambda: False)
    else:
        pytest.importorskip("tensorflow")
    return request.param


def test_sizes_fractions_counts_and_rest():
    assert split_sizes(0.8, None, 10) == (8, 2)
    assert split_sizes(None, 3, 10) == (7, 3)
    assert split_sizes(0.5, 0.2, 10) == (5, 2)  # the middle is left out
    assert split_sizes(0.25, None, 10) == (2, 8)  # round(2.5) = 2, as Python rounds
    cases = [
        ((None, None), "left_size"),
        ((0, None), "left_size"),
        ((10, None), "left_size"),
        ((1.5, None), "left_size"),
        ((0.6, 0.6), "more than 1"),
        ((6, 6), "has 10"),
        ((0.01, None), "empty"),
    ]
    for sizes, message in cases:
        with pytest.raises(ValueError, match=message):
            split_sizes(*sizes, 10)
    with pytest.raises(TypeError, match="left_size"):
        split_sizes("half", None, 10)


def test_arrays_split_in_order_or_seeded_shuffle(output):
    left, right = split_dataset((X, Y), left_size=0.7, preferred_backend="jax")
    assert [r[1] for r in rows(left)] == list(range(7))
    assert [r[1] for r in rows(right)] == [7, 8, 9]
    left, right = split_dataset((X, Y), left_size=6, shuffle=True, seed=4, preferred_backend="jax")
    labels = [int(r[1]) for r in rows(left)] + [int(r[1]) for r in rows(right)]
    assert sorted(labels) == list(range(10)) and labels != list(range(10))
    for x, y in rows(left) + rows(right):
        np.testing.assert_array_equal(x, X[y])  # rows stay paired
    again = split_dataset((X, Y), left_size=6, shuffle=True, seed=4, preferred_backend="jax")
    assert [int(r[1]) for r in rows(again[0])] == labels[:6]


def test_single_array_and_kinds(output):
    left, right = split_dataset(X, right_size=0.3, preferred_backend="jax")
    assert len(rows(left)) == 7 and rows(right)[0][0].tolist() == [14.0, 15.0]
    if output == "tripod":
        assert isinstance(left, ArrayDataset) and left.batch_size is None
    else:
        assert type(left).__module__.startswith("tensorflow")


def test_a_batched_array_dataset_is_split_by_sample_and_rebatched(output):
    data = ArrayDataset.from_arrays((X, Y), batch_size=3, shuffle=True, seed=0)
    left, _ = split_dataset(data, left_size=0.5, preferred_backend="jax")
    batches = list(left)
    assert [len(as_numpy(b[1])) for b in batches] == [3, 2]
    assert sorted(np.concatenate([as_numpy(b[1]) for b in batches]).tolist()) == [0, 1, 2, 3, 4]


@needs_tf
def test_a_batched_tf_dataset_is_split_by_sample():
    tf = pytest.importorskip("tensorflow")
    data = tf.data.Dataset.from_tensor_slices((X, Y)).batch(4)
    left, right = split_dataset(data, left_size=8)
    assert [int(b[1].shape[0]) for b in left] == [4, 4]
    assert [int(v) for b in right for v in b[1]] == [8, 9]


def test_torch_subsets_when_preferred():
    pytest.importorskip("torch")
    left, right = split_dataset(
        (X, Y), left_size=0.6, shuffle=True, seed=1, preferred_backend="torch"
    )
    assert type(left).__name__ == "Subset" and len(left) == 6 and len(right) == 4
    assert set(left.indices).isdisjoint(right.indices)
    assert set(left.indices) | set(right.indices) == set(range(10))
    x, y = left[0]
    np.testing.assert_array_equal(as_numpy(x), X[int(y)])
    inner, _ = split_dataset(left, left_size=2)  # a torch Dataset stays torch
    assert type(inner).__name__ == "Subset" and len(inner) == 2


def test_unsupported_input_is_a_type_error():
    with pytest.raises(TypeError, match="dict"):
        split_dataset({"x": X}, left_size=0.5)
    with pytest.raises(ValueError, match="one length"):
        split_dataset((X, Y[:5]), left_size=0.5, preferred_backend="jax")


def test_model_trains_on_a_split(output):
    left, _ = split_dataset((X, Y.astype("float32")), left_size=8, preferred_backend="jax")
    data = (
        left.batch(4)
        if output == "tf"
        else ArrayDataset.from_arrays(tuple(np.stack(c) for c in zip(*rows(left))), batch_size=4)
    )
    assert fit_or_predict(data, [layers.Dense(1)], "mse").shape == (8, 1)
