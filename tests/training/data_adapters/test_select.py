"""get_data_adapter: whatever the source, batches come out as NumPy arrays, floats in floatx.

predict hands these batches to the step as they are, so this is a contract every adapter keeps.
"""

import numpy as np
import pytest

from tests.training.data_adapters.helpers import BATCH, X, Y, batches
from tripod import ops
from tripod.training.data_adapters import PyDataset, get_data_adapter, num_samples

X64 = X.astype("float64")
LABELS = np.arange(len(X), dtype="int64")


class Batches(PyDataset):
    def __init__(self, items):
        super().__init__()
        self.items = items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, index):
        return self.items[index]


SOURCES = {
    "array": lambda: get_data_adapter(X64, LABELS, batch_size=BATCH),
    "dict": lambda: get_data_adapter({"a": X64, "b": X}, LABELS, batch_size=BATCH),
    "tensor": lambda: get_data_adapter(ops.convert_to_tensor(X), LABELS, batch_size=BATCH),
    "generator": lambda: get_data_adapter(iter(batches(X64, LABELS))),
    "py_dataset": lambda: get_data_adapter(Batches(batches(X64, LABELS))),
}


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_every_source_yields_numpy_batches_with_floats_in_floatx(source):
    seen = list(SOURCES[source]().get_iterator())
    assert len(seen) == len(X) // BATCH
    for index, (x, y) in enumerate(seen):
        for leaf in x.values() if isinstance(x, dict) else [x]:
            assert type(leaf) is np.ndarray and leaf.dtype == np.float32
            np.testing.assert_allclose(leaf, X[index * BATCH : (index + 1) * BATCH], rtol=1e-7)
        assert type(y) is np.ndarray and y.dtype == np.int64  # only floats are cast
        np.testing.assert_array_equal(y, LABELS[index * BATCH : (index + 1) * BATCH])


def test_an_array_in_floatx_is_not_copied():
    x = next(get_data_adapter(X, batch_size=BATCH).get_iterator())
    assert np.shares_memory(x, X)


def test_num_samples_of_one_array_or_a_structure():
    assert num_samples(X) == 32
    assert num_samples((X, None, Y)) == 32
    assert num_samples({"a": X, "b": [Y, None]}) == 32
    assert num_samples((None, None)) == 0
    with pytest.raises(ValueError, match="batch .first. dimension"):
        num_samples(np.float32(1.0))
    with pytest.raises(ValueError, match="batch .first. dimension"):
        num_samples((X, np.zeros(())))
    with pytest.raises(ValueError, match="same number of samples; received 0/a: 32, 1: 31"):
        num_samples(({"a": X}, Y[:31]))
