"""ArrayDataset: batching, seeded per-epoch shuffles, map, workers, and use by Model.fit."""

import numpy as np
import pytest

from tests.data.builder_files import fit_or_predict
from tripod import layers
from tripod.data.array_dataset import ArrayDataset

X = np.arange(10, dtype="float32")[:, None]
Y = np.arange(10, dtype="float32")


def test_batches_len_and_unbatched_samples():
    ds = ArrayDataset.from_arrays((X, Y), batch_size=4)
    assert len(ds) == 3
    assert [b[1].tolist() for b in ds] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    with pytest.raises(IndexError):
        ds[3]
    single = ArrayDataset.from_arrays(X, batch_size=None)
    assert len(single) == 10 and single[2].tolist() == [2.0]
    with pytest.raises(ValueError, match="batch_size"):
        ArrayDataset.from_arrays(X, batch_size=0)
    with pytest.raises(ValueError, match="one length"):
        ArrayDataset.from_arrays((X, Y[:3]))


def test_each_epoch_is_a_new_seeded_order():
    def orders(seed):
        ds = ArrayDataset.from_arrays(Y, batch_size=10, shuffle=True, seed=seed)
        return [next(iter(ds)).tolist() for _ in range(3)]

    first = orders(1)
    assert first == orders(1) and first != orders(2)
    assert len({tuple(o) for o in first}) == 3
    assert all(sorted(o) == Y.tolist() for o in first)


def test_map_transforms_batches_and_samples():
    ds = ArrayDataset.from_arrays((X, Y), batch_size=5).map(lambda x, y: (x * 2, y + 1))
    x, y = ds[1]
    assert x[:, 0].tolist() == [10, 12, 14, 16, 18] and y.tolist() == [6, 7, 8, 9, 10]
    assert ArrayDataset.from_arrays(Y, batch_size=None).map(lambda v: -v)[3] == -3.0


def test_strings_batch_into_object_arrays():
    ds = ArrayDataset(lambda i: (f"text {i}", i), 3, batch_size=3)
    texts, labels = ds[0]
    assert texts.dtype == object and texts.tolist() == ["text 0", "text 1", "text 2"]
    assert labels.tolist() == [0, 1, 2]


@pytest.mark.parametrize("workers", [1, 3])
def test_model_fits_and_predicts_with_workers(workers):
    ds = ArrayDataset.from_arrays((X, Y), batch_size=4, shuffle=True, seed=0, workers=workers)
    assert fit_or_predict(ds, [layers.Dense(1)], "mse").shape == (10, 1)
