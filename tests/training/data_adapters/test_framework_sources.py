"""tf.data.Dataset and torch DataLoader as data on every backend (found without importing them)."""

import numpy as np
import pytest

from tests.training.data_adapters.helpers import (
    BATCH,
    SW,
    X,
    Y,
    assert_same_training,
    model,
    needs_training,
)
from tripod.training.data_adapters import get_data_adapter


@pytest.fixture(scope="module")
def tf():
    return pytest.importorskip("tensorflow")


@pytest.fixture(scope="module")
def torch_data():
    torch = pytest.importorskip("torch")
    from torch.utils import data

    return torch, data


@needs_training
def test_fit_on_a_tf_dataset(tf):
    m = model()
    history = m.fit(tf.data.Dataset.from_tensor_slices((X, Y)).batch(BATCH), epochs=2, verbose=0)
    assert_same_training(m, history)


@needs_training
def test_fit_on_a_repeating_tf_dataset_with_sample_weights(tf):
    m = model()
    data = tf.data.Dataset.from_tensor_slices((X, Y, SW)).batch(BATCH).repeat()
    history = m.fit(data, steps_per_epoch=4, epochs=2, verbose=0)
    assert_same_training(m, history, sample_weight=SW)
    with pytest.raises(ValueError, match="infinite"):
        get_data_adapter(data)


def test_tf_dataset_evaluate_predict_and_structures(tf):
    m = model()
    logs = m.evaluate(
        tf.data.Dataset.from_tensor_slices((X, Y)).batch(BATCH), verbose=0, return_dict=True
    )
    assert logs == pytest.approx(
        m.evaluate(X, Y, batch_size=BATCH, verbose=0, return_dict=True), rel=1e-6
    )
    predicted = m.predict(tf.data.Dataset.from_tensor_slices(X).batch(5), verbose=0)
    np.testing.assert_allclose(predicted, m.predict(X, verbose=0), rtol=1e-6)
    adapter = get_data_adapter(
        tf.data.Dataset.from_tensor_slices(({"a": X.astype("float64")}, Y)).batch(16)
    )
    assert adapter.num_batches == 2
    (x, _), _ = list(adapter.get_iterator())
    assert isinstance(x["a"], np.ndarray) and x["a"].dtype == np.float32


@needs_training
def test_fit_on_a_torch_dataloader(torch_data):
    torch, data = torch_data
    loader = data.DataLoader(
        data.TensorDataset(torch.from_numpy(X), torch.from_numpy(Y)), batch_size=BATCH
    )
    m = model()
    history = m.fit(loader, epochs=2, verbose=0)
    assert_same_training(m, history)


def test_torch_dataloader_evaluate_predict_and_dict_batches(torch_data):
    torch, data = torch_data
    m = model()
    loader = data.DataLoader(
        data.TensorDataset(torch.from_numpy(X), torch.from_numpy(Y)), batch_size=BATCH
    )
    logs = m.evaluate(loader, verbose=0, return_dict=True)
    assert logs == pytest.approx(
        m.evaluate(X, Y, batch_size=BATCH, verbose=0, return_dict=True), rel=1e-6
    )
    only_x = data.DataLoader(torch.from_numpy(X), batch_size=5)
    np.testing.assert_allclose(m.predict(only_x, verbose=0), m.predict(X, verbose=0), rtol=1e-6)
    pairs = [({"a": torch.ones(3, dtype=torch.float64)}, torch.tensor([1.0])) for _ in range(4)]
    adapter = get_data_adapter(data.DataLoader(pairs, batch_size=2))
    assert adapter.num_batches == 2
    (x, y), _ = list(adapter.get_iterator())
    assert x["a"].shape == (2, 3) and x["a"].dtype == np.float32 and y.shape == (2, 1)


def test_torch_dataloader_over_an_iterable_dataset_has_no_length(torch_data):
    torch, data = torch_data

    class Stream(data.IterableDataset):
        def __iter__(self):
            return iter(torch.from_numpy(X))

    adapter = get_data_adapter(data.DataLoader(Stream(), batch_size=10))
    assert adapter.num_batches is None
    assert [b.shape[0] for b in adapter.get_iterator()] == [10, 10, 10, 2]  # x alone, as Keras
