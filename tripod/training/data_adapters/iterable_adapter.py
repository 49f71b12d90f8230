"""Batches from sources that produce them one at a time: Python generators and iterators,
`tf.data.Dataset`, `torch.utils.data.DataLoader` (both found by duck typing, without importing
their framework) and `PyDataset`.

Each batch is x, (x,), (x, y) or (x, y, sample_weight) of arrays or framework tensors; it is
turned into NumPy arrays (floats in floatx), so every source works on every backend.
"""

import warnings

import numpy as np

from tripod.backends.common import tree
from tripod.training.data_adapters.array_adapter import (
    check_no_nan,
    class_weight_to_sample_weight,
    standardize_arrays,
    strings_as_array,
    to_array,
)
from tripod.training.data_adapters.batches import pack_x_y_sample_weight, unpack_x_y_sample_weight


def standardize_batch(batch, class_weight=None, check_nan=False):
    """A batch as NumPy arrays, with `class_weight` turned into sample weights."""
    x, y, sample_weight = unpack_x_y_sample_weight(batch)
    x = strings_as_array(x)
    x, y, sample_weight = (standardize_arrays(s) for s in (x, y, sample_weight))
    if class_weight is not None:
        if y is None or tree.is_nested(y):
            raise ValueError("class_weight needs batches with a single target array y.")
        extra = class_weight_to_sample_weight(y, class_weight)
        sample_weight = extra if sample_weight is None else sample_weight * extra
    if check_nan:
        check_no_nan({"x": x, "y": y, "sample_weight": sample_weight}, "A batch")
    return pack_x_y_sample_weight(x, y, sample_weight)


class IterableDataAdapter:
    """Batches from `make_iterator()`, `steps_per_epoch` of them per epoch if given.

    A re-iterable source (a data set, a loader) starts over each epoch, or, with
    `steps_per_epoch`, continues across epochs and starts over when it runs out. A one-shot
    source (a generator) continues across epochs; when it runs out, fit is warned and stops.
    """

    def __init__(
        self,
        make_iterator,
        num_batches=None,
        steps_per_epoch=None,
        class_weight=None,
        reiterable=True,
        check_nan=False,
        description="data",
    ):
        self._make_iterator = make_iterator
        self._steps_per_epoch = steps_per_epoch
        self.num_batches = steps_per_epoch or num_batches
        self.batch_size = None
        self._class_weight = class_weight
        self._reiterable = reiterable
        self._check_nan = check_nan
        self._description = description
        self._iterator = None

    def on_epoch_begin(self):
        if self._reiterable and not self._steps_per_epoch:
            self._iterator = None  # each epoch is one full pass

    def on_epoch_end(self):
        pass

    def _next(self):
        """The next raw batch (None when the source has run out)."""
        if self._iterator is None:
            self._iterator = iter(self._make_iterator())
        try:
            return next(self._iterator)
        except StopIteration:
            self._iterator = None
            return None

    def get_iterator(self):
        """Standardized batches for one epoch."""
        step = 0
        while self._steps_per_epoch is None or step < self._steps_per_epoch:
            batch = self._next()
            if batch is None and self._steps_per_epoch and self._reiterable:
                batch = self._next()  # steps_per_epoch goes past its end: start it over
            if batch is None:
                if self._steps_per_epoch:
                    warnings.warn(
                        f"Your input ran out of data after {step} of {self._steps_per_epoch} steps: make sure "
                        f"the {self._description} can produce at least `steps_per_epoch * epochs` batches.",
                        stacklevel=2,
                    )
                return
            if self.batch_size is None:
                self.batch_size = _first_dim(batch)
            yield standardize_batch(batch, self._class_weight, self._check_nan)
            step += 1


def _first_dim(batch):
    leaves = [leaf for leaf in tree.flatten(unpack_x_y_sample_weight(batch)[0]) if leaf is not None]
    shape = getattr(leaves[0], "shape", None) if leaves else None
    return int(shape[0]) if shape else None


# -- sources recognized by duck typing ----------------------------------------------------------
def _module_of(x):
    return type(x).__module__ or ""


def is_tf_dataset(x):
    """A `tf.data.Dataset` (recognized without importing tensorflow)."""
    return (
        _module_of(x).startswith("tensorflow")
        and hasattr(x, "as_numpy_iterator")
        and hasattr(x, "cardinality")
    )


def is_torch_dataloader(x):
    """A `torch.utils.data.DataLoader` (recognized without importing torch)."""
    return (
        _module_of(x).startswith("torch.utils.data")
        and hasattr(x, "__iter__")
        and hasattr(x, "dataset")
    )


def is_generator(x):
    """A Python generator or other one-shot iterator."""
    return hasattr(x, "__next__") and hasattr(x, "__iter__") and not hasattr(x, "__len__")


def tf_dataset_adapter(dataset, steps_per_epoch=None, class_weight=None, check_nan=False):
    cardinality = int(np.asarray(to_array(dataset.cardinality())))
    num_batches = cardinality if cardinality >= 0 else None  # -1: infinite, -2: unknown
    if cardinality == -1 and not steps_per_epoch:
        raise ValueError("The tf.data.Dataset is infinite (it repeats): pass steps_per_epoch.")
    return IterableDataAdapter(
        dataset.as_numpy_iterator,
        num_batches,
        steps_per_epoch,
        class_weight,
        check_nan=check_nan,
        description="tf.data.Dataset",
    )


def torch_dataloader_adapter(loader, steps_per_epoch=None, class_weight=None, check_nan=False):
    try:
        num_batches = len(loader)
    except TypeError:  # a loader over an IterableDataset has no length
        num_batches = None
    return IterableDataAdapter(
        lambda: iter(loader),
        num_batches,
        steps_per_epoch,
        class_weight,
        check_nan=check_nan,
        description="DataLoader",
    )


def generator_adapter(generator, steps_per_epoch=None, class_weight=None, check_nan=False):
    return IterableDataAdapter(
        lambda: generator,
        None,
        steps_per_epoch,
        class_weight,
        reiterable=False,
        check_nan=check_nan,
        description="generator",
    )
