"""`PyDataset`: a Python object serving batches by index, optionally from parallel workers."""

import concurrent.futures
import itertools
import multiprocessing
import warnings

import numpy as np

from tripod.training.data_adapters.iterable_adapter import IterableDataAdapter


class PyDataset:
    """Base class for batch sources: implement `__getitem__(index)` -> a batch and `__len__()`.

    A batch is x, (x,), (x, y) or (x, y, sample_weight). `workers` > 1 fetches batches in
    parallel threads (processes with `use_multiprocessing=True`), keeping up to
    `max_queue_size` batches ready. `on_epoch_begin`/`on_epoch_end` run around each epoch.
    """

    def __init__(self, workers=1, use_multiprocessing=False, max_queue_size=10):
        self._workers = workers
        self._use_multiprocessing = use_multiprocessing
        self._max_queue_size = max_queue_size

    def _settings(self):
        """(workers, use_multiprocessing, max_queue_size): a subclass may skip super().__init__."""
        if not hasattr(self, "_workers"):
            warnings.warn(
                f"{type(self).__name__} should call `super().__init__(**kwargs)` in its constructor "
                "(workers, use_multiprocessing, max_queue_size); using the defaults.",
                stacklevel=3,
            )
            PyDataset.__init__(self)
        return self._workers, self._use_multiprocessing, self._max_queue_size

    @property
    def workers(self):
        return self._settings()[0]

    @workers.setter
    def workers(self, value):
        self._workers = value

    @property
    def use_multiprocessing(self):
        return self._settings()[1]

    @use_multiprocessing.setter
    def use_multiprocessing(self, value):
        self._use_multiprocessing = value

    @property
    def max_queue_size(self):
        return self._settings()[2]

    @max_queue_size.setter
    def max_queue_size(self, value):
        self._max_queue_size = value

    def __getitem__(self, index):
        """The batch at `index`."""
        raise NotImplementedError(f"{type(self).__name__} must implement __getitem__(index).")

    def __len__(self):
        """The number of batches in an epoch."""
        raise NotImplementedError(
            f"{type(self).__name__} must implement __len__(), or num_batches."
        )

    @property
    def num_batches(self):
        """Batches per epoch (None for an endless data set, read until IndexError)."""
        try:
            return len(self)
        except NotImplementedError:
            return None

    def on_epoch_begin(self):
        """Called before each epoch."""

    def on_epoch_end(self):
        """Called after each epoch (e.g. to reshuffle)."""


#: the data set a worker process serves (set in each process by `_init_worker`)
_WORKER_DATASET = None


def _init_worker(dataset):
    global _WORKER_DATASET
    _WORKER_DATASET = dataset


def _fetch_in_worker(index):
    return _WORKER_DATASET[index]


class PyDatasetAdapter(IterableDataAdapter):
    """Batches of a `PyDataset`, in order or shuffled, fetched ahead by its workers."""

    def __init__(
        self, dataset, steps_per_epoch=None, shuffle=False, class_weight=None, check_nan=False
    ):
        self.dataset = dataset
        self._shuffle = bool(shuffle)
        workers, self._use_processes, queue_size = dataset._settings()
        self._workers = max(1, int(workers or 1))
        self._queue_size = max(1, int(queue_size or 1))
        self._pool = None
        #: draws the shuffles (a seeded generator makes processes of a distributed run agree)
        self.rng = np.random
        super().__init__(
            make_iterator=self._batches,
            num_batches=dataset.num_batches,
            steps_per_epoch=steps_per_epoch,
            class_weight=class_weight,
            check_nan=check_nan,
            description="PyDataset",
        )

    def _indices(self):
        total = self.dataset.num_batches
        if total is None:
            return itertools.count()
        return self.rng.permutation(total).tolist() if self._shuffle else range(total)

    def _batches(self):
        if self._workers == 1:
            return self._serial()
        return self._parallel()

    def _serial(self):
        for index in self._indices():
            try:
                yield self.dataset[index]
            except IndexError:
                if self.dataset.num_batches is None:
                    return  # the end of an endless data set
                raise

    def _executor(self):
        if self._pool is None:
            if self._use_processes:
                context = (
                    multiprocessing.get_context()
                )  # with spawn/forkserver, the data set must pickle
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    self._workers,
                    mp_context=context,
                    initializer=_init_worker,
                    initargs=(self.dataset,),
                )
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(self._workers)
        return self._pool

    def _parallel(self):
        """Batches in index order, with up to `max_queue_size` requested ahead."""
        pool = self._executor()
        fetch = _fetch_in_worker if self._use_processes else self.dataset.__getitem__
        pending = []
        indices = iter(self._indices())
        try:
            while True:
                while len(pending) < self._queue_size:
                    index = next(indices, None)
                    if index is None:
                        break
                    pending.append(pool.submit(fetch, index))
                if not pending:
                    return
                try:
                    yield pending.pop(0).result()
                except IndexError:
                    if self.dataset.num_batches is None:
                        return
                    raise
        finally:
            for future in pending:
                future.cancel()

    def on_epoch_begin(self):
        super().on_epoch_begin()
        self.dataset.on_epoch_begin()

    def on_epoch_end(self):
        self.dataset.on_epoch_end()
        if self._use_processes and self._pool is not None:
            self._pool.shutdown(
                cancel_futures=True
            )  # workers see the data set as of the next epoch
            self._pool = None

    def __del__(self):
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
