"""tripod.utils.PyDataset: batches by index, epoch hooks, shuffling and parallel workers."""

import threading

import numpy as np
import pytest

import tripod as keras
from tests.training.data_adapters.helpers import (
    BATCH,
    X,
    Y,
    assert_same_training,
    model,
    needs_training,
)
from tripod.training.data_adapters import get_data_adapter


class Batches(keras.utils.PyDataset):
    def __init__(self, x, y=None, batch_size=BATCH, **kwargs):
        super().__init__(**kwargs)
        self.x, self.y, self.batch_size = x, y, batch_size
        self.requested, self.epochs_ended, self.threads = [], 0, set()

    def __len__(self):
        return int(np.ceil(len(self.x) / self.batch_size))

    def __getitem__(self, index):
        self.requested.append(index)
        self.threads.add(threading.get_ident())
        part = slice(index * self.batch_size, (index + 1) * self.batch_size)
        return self.x[part] if self.y is None else (self.x[part], self.y[part])

    def on_epoch_end(self):
        self.epochs_ended += 1


@needs_training
def test_fit_in_order_calls_on_epoch_end():
    data = Batches(X, Y)
    m = model()
    history = m.fit(data, epochs=2, shuffle=False, verbose=0)
    assert_same_training(m, history)
    assert data.requested == [0, 1, 2, 3] * 2 and data.epochs_ended == 2


@needs_training
def test_shuffle_reorders_batches_each_epoch():
    data = Batches(X, Y)
    np.random.seed(3)
    model().fit(data, epochs=3, verbose=0)
    epochs = [data.requested[i : i + 4] for i in range(0, 12, 4)]
    assert all(sorted(e) == [0, 1, 2, 3] for e in epochs)
    assert epochs != [[0, 1, 2, 3]] * 3


@needs_training
@pytest.mark.parametrize("use_multiprocessing", [False, True])
def test_workers_give_the_same_training(use_multiprocessing):
    data = Batches(X, Y, workers=3, use_multiprocessing=use_multiprocessing, max_queue_size=2)
    m = model()
    history = m.fit(data, epochs=2, shuffle=False, verbose=0)
    assert_same_training(m, history)
    if not use_multiprocessing:
        assert data.threads and threading.get_ident() not in data.threads  # fetched by the workers


def test_evaluate_and_predict_on_every_backend():
    m = model()
    logs = m.evaluate(Batches(X, Y, workers=2), verbose=0, return_dict=True)
    assert logs == pytest.approx(
        m.evaluate(X, Y, batch_size=BATCH, verbose=0, return_dict=True), rel=1e-6
    )
    np.testing.assert_allclose(m.predict(Batches(X), verbose=0), m.predict(X, verbose=0), rtol=1e-6)


class Endless(keras.utils.PyDataset):
    """No __len__: served until __getitem__ raises IndexError."""

    def __getitem__(self, index):
        if index >= 3:
            raise IndexError(index)
        return X[index * 4 : index * 4 + 4]


def test_a_data_set_without_length_runs_until_index_error():
    adapter = get_data_adapter(Endless())
    assert adapter.num_batches is None
    assert [b.shape for b in adapter.get_iterator()] == [(4, 4)] * 3  # x alone, as Keras


def test_defaults_and_a_subclass_that_skips_super_init():
    assert keras.utils.Sequence is keras.utils.PyDataset
    data = Batches(X)
    assert (data.workers, data.use_multiprocessing, data.max_queue_size) == (1, False, 10)

    class NoInit(keras.utils.PyDataset):
        def __init__(self):
            pass

        def __len__(self):
            return 1

        def __getitem__(self, index):
            return X[:2]

    with pytest.warns(UserWarning, match="super"):
        assert NoInit().workers == 1
    with pytest.raises(NotImplementedError, match="__getitem__"):
        keras.utils.PyDataset()[0]


def test_y_is_refused():
    with pytest.raises(ValueError, match="`y` is not supported when x is a PyDataset"):
        get_data_adapter(Batches(X), Y)
