"""`ArrayDataset`: tripod's own dataset iterable, what the dataset builders return with
`format="tripod"` or when TensorFlow is not installed."""

import copy
import os

import numpy as np

from tripod.backends.common import tree
from tripod.training.data_adapters import PyDataset


def _stack(*leaves):
    if isinstance(leaves[0], (str, bytes)):
        return np.array(leaves, dtype=object)
    return np.stack(leaves)


def stack_samples(samples):
    """One batch from samples of one structure: each leaf stacked along a new first axis
    (strings into an object array)."""
    return tree.map_structure(_stack, *samples)


class ArraySamples:
    """Sample `i` of a structure of arrays: every leaf's row `i` (a picklable loader)."""

    def __init__(self, arrays):
        self.arrays = arrays

    def __call__(self, index):
        return tree.map_structure(lambda array: array[index], self.arrays)


def _apply(function, item):
    return function(*item) if isinstance(item, tuple) else function(item)


class ArrayDataset(PyDataset):
    """tripod's dataset iterable: batches of NumPy arrays made from samples loaded by index.

    Sample `i` is `load(i)`: an array, a string or a tuple of them, e.g. `(image, label)`.
    Each batch stacks `batch_size` samples with `collate` (the last batch may be smaller;
    `batch_size=None` serves single samples). With `shuffle`, samples are in a new order each
    epoch, drawn from `seed` (the same seed, the same orders). `len()` is the number of
    batches; iterating gives one epoch. It is a `PyDataset`, so `Model.fit`, `evaluate` and
    `predict` take it on every backend, prefetching batches with `workers` threads (processes
    with `use_multiprocessing=True`; then `load` must pickle). `class_names` and `file_paths`
    say what a directory builder found, as on Keras's datasets; `map(function)` transforms
    the batches in the workers.

    The dataset builders (`image_dataset_from_directory`, ...) return one when asked for
    `format="tripod"`, or for the default `format="tf"` when TensorFlow is not installed.

    >>> ds = ArrayDataset.from_arrays((np.arange(5.0), np.arange(5)), batch_size=2)
    >>> len(ds), [int(len(x)) for x, y in ds]
    (3, [2, 2, 1])
    """

    def __init__(
        self,
        load,
        num_samples,
        batch_size=32,
        shuffle=False,
        seed=None,
        collate=stack_samples,
        workers=None,
        use_multiprocessing=False,
        max_queue_size=10,
    ):
        if batch_size is not None and (not isinstance(batch_size, int) or batch_size < 1):
            raise ValueError(
                f"ArrayDataset: batch_size must be a positive int or None, received {batch_size!r}"
            )
        if workers is None:
            workers = min(4, os.cpu_count() or 1)
        super().__init__(workers, use_multiprocessing, max_queue_size)
        self.load = load
        self.num_samples = int(num_samples)
        self.batch_size = batch_size
        self.shuffle = bool(shuffle)
        self.collate = collate
        self.class_names = None
        self.file_paths = None
        self._functions = ()
        self._rng = np.random.default_rng(seed)
        self._order = self._draw_order()
        self._order_used = False

    @classmethod
    def from_arrays(cls, arrays, batch_size=32, shuffle=False, seed=None, **kwargs):
        """A data set over the rows of `arrays` (an array or a tuple/dict of equally long ones)."""
        arrays = tree.map_structure(np.asarray, arrays)
        lengths = {len(array) for array in tree.flatten(arrays)}
        if len(lengths) != 1:
            raise ValueError(
                f"ArrayDataset.from_arrays: the arrays must have one length, received {lengths}"
            )
        return cls(ArraySamples(arrays), lengths.pop(), batch_size, shuffle, seed, **kwargs)

    def map(self, function):
        """A data set whose batches are `function(*batch)` of this one's (`function(batch)`
        for a lone array; per sample when unbatched), computed in its workers, as
        `tf.data.Dataset.map`: e.g. preprocessing layers kept off the training step."""
        mapped = copy.copy(self)
        mapped._rng = copy.deepcopy(self._rng)
        mapped._functions = self._functions + (function,)
        return mapped

    def _draw_order(self):
        if self.shuffle:
            return self._rng.permutation(self.num_samples)
        return np.arange(self.num_samples)

    def __len__(self):
        if self.batch_size is None:
            return self.num_samples
        return (self.num_samples + self.batch_size - 1) // self.batch_size

    def __getitem__(self, index):
        """Batch `index` of this epoch (sample `index` when `batch_size` is None)."""
        if not 0 <= index < len(self):
            raise IndexError(f"ArrayDataset: index {index} out of range for {len(self)} batches")
        if self.batch_size is None:
            item = self.load(int(self._order[index]))
        else:
            chosen = self._order[index * self.batch_size : (index + 1) * self.batch_size]
            item = self.collate([self.load(int(i)) for i in chosen])
        for function in self._functions:
            item = _apply(function, item)
        return item

    def __iter__(self):
        """The batches of one epoch; each new pass (or `on_epoch_end`) draws a new order."""
        if self._order_used:
            self.on_epoch_end()
        self._order_used = True
        for index in range(len(self)):
            yield self[index]

    def on_epoch_end(self):
        """Draw the next epoch's order (when shuffling)."""
        self._order_used = False
        if self.shuffle:
            self._order = self._draw_order()

    def __repr__(self):
        return (
            f"<ArrayDataset: {self.num_samples} samples, batch_size={self.batch_size}, "
            f"shuffle={self.shuffle}>"
        )
