"""`split_dataset`: a data set cut in two (e.g. train / test), optionally after a seeded
shuffle, returned as the kind of data set `preferred_backend` works with (Keras 3 semantics)."""

import numbers

import numpy as np

from tripod.backends import config
from tripod.backends.common import optional, tree
from tripod.data.array_dataset import ArrayDataset
from tripod.data.formats import tensorflow_installed, tf_pipelines
from tripod.training.data_adapters.iterable_adapter import is_tf_dataset


def _torch_pipelines():
    return optional.require(
        "tripod.backends.torch.datasets", "torch", "split_dataset(preferred_backend='torch')"
    )


def _is_torch_dataset(x):
    """A `torch.utils.data.Dataset` (recognized without importing torch)."""
    return any(
        cls.__name__ == "Dataset" and cls.__module__.startswith("torch.utils.data")
        for cls in type(x).__mro__
    )


def _preferred_backend(dataset):
    if isinstance(dataset, (list, tuple, np.ndarray, ArrayDataset)):
        return config.backend()
    if is_tf_dataset(dataset):
        return "tensorflow"
    if _is_torch_dataset(dataset):
        return "torch"
    raise TypeError(
        "split_dataset: `dataset` must be a NumPy array, a list/tuple of arrays, a "
        "tf.data.Dataset, a torch Dataset or a tripod ArrayDataset. Received: "
        f"{type(dataset).__name__}"
    )


def _size(value, name, total):
    """`value` (a fraction or a count, None) as a count of the `total` samples."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"split_dataset: `{name}` must be an int, a float or None, received {value!r}"
        )
    if isinstance(value, numbers.Integral):
        if not 0 < value < total:
            raise ValueError(
                f"split_dataset: an int `{name}` must be in (0, {total}), received {value}"
            )
        return int(value)
    if not 0 < value < 1:
        raise ValueError(f"split_dataset: a float `{name}` must be in (0, 1), received {value}")
    return round(value * total)


def split_sizes(left_size, right_size, total):
    """(left, right) sample counts for `total` samples: fractions or counts, None meaning the
    rest; a ValueError when they overlap or leave a side empty."""
    if left_size is None and right_size is None:
        raise ValueError("split_dataset: pass `left_size`, `right_size` or both.")
    if (
        isinstance(left_size, float)
        and isinstance(right_size, float)
        and left_size + right_size > 1
    ):
        raise ValueError(
            f"split_dataset: left_size + right_size = {left_size + right_size} is more than 1."
        )
    left, right = _size(left_size, "left_size", total), _size(right_size, "right_size", total)
    left = total - right if left is None else left
    right = total - left if right is None else right
    if left + right > total:
        raise ValueError(
            f"split_dataset: {left} + {right} samples asked for, but the dataset has {total}."
        )
    if not left or not right:
        raise ValueError(
            f"split_dataset: with {total} samples, left_size={left_size} and "
            f"right_size={right_size} leave one side empty."
        )
    return left, right


def _stack(samples):
    if not samples:
        raise ValueError("split_dataset: the dataset is empty.")
    samples = [tree.lists_to_tuples(sample) for sample in samples]
    try:
        return tree.map_structure(lambda *xs: np.stack([np.asarray(x) for x in xs]), *samples)
    except ValueError as error:
        raise ValueError(f"split_dataset: all samples must have one shape ({error})") from None


def _check_arrays(arrays):
    lengths = set()
    for array in arrays:
        if not isinstance(array, np.ndarray):
            raise TypeError(
                f"split_dataset: a list/tuple dataset must hold NumPy arrays, received "
                f"{type(array).__name__}"
            )
        lengths.add(len(array))
    if len(lengths) != 1:
        raise ValueError(f"split_dataset: the arrays must have one length, received {lengths}")
    return tuple(arrays)


def _as_arrays(dataset):
    """(samples stacked into a structure of arrays, the batch size to give the splits)."""
    if isinstance(dataset, np.ndarray):
        return dataset, None
    if isinstance(dataset, (list, tuple)):
        return _check_arrays(dataset), None
    if is_tf_dataset(dataset):
        tf_data = tf_pipelines()
        return _stack(tf_data.samples(dataset)), tf_data.batch_size_of(dataset)
    if isinstance(dataset, ArrayDataset):
        samples = [dataset.load(i) for i in range(dataset.num_samples)]
        return _stack(samples), dataset.batch_size
    return _stack([dataset[i] for i in range(len(dataset))]), None  # a torch Dataset


def _torch_dataset(dataset, torch_data):
    """`dataset` if a torch Dataset, else a `TensorDataset` over its arrays (Keras's items)."""
    if torch_data.is_dataset(dataset):
        return dataset
    arrays = _as_arrays(dataset)[0]
    return torch_data.tensor_dataset(
        (arrays,) if isinstance(arrays, np.ndarray) else tree.flatten(arrays)
    )


def _indices(total, left_size, right_size, shuffle, seed):
    """The sample indices of the left and the right half."""
    left, right = split_sizes(left_size, right_size, total)
    order = np.random.RandomState(seed).permutation(total) if shuffle else np.arange(total)
    return order[:left], order[total - right :]


def _rows(arrays, indices):
    return tree.map_structure(lambda array: array[indices], arrays)


def split_dataset(
    dataset, left_size=None, right_size=None, shuffle=False, seed=None, preferred_backend=None
):
    """(left, right): the first `left_size` and the last `right_size` samples of `dataset`
    (after a shuffle drawn from `seed` when `shuffle`), each a fraction in (0, 1) or a count;
    None means the rest.

    `dataset` is a NumPy array, a list/tuple of equally long arrays, a `tf.data.Dataset` (a
    batched one is split by sample and the halves batched alike), a torch `Dataset` or a
    tripod `ArrayDataset`. With `preferred_backend="torch"` (the default for torch data sets,
    and for arrays on the torch backend) the halves are `torch.utils.data.Subset`s; otherwise
    `tf.data.Dataset`s when TensorFlow is installed, else `tripod.data.ArrayDataset`s.
    """
    preferred_backend = preferred_backend or _preferred_backend(dataset)
    if preferred_backend == "torch":
        torch_data = _torch_pipelines()
        dataset = _torch_dataset(dataset, torch_data)
        return torch_data.subsets(
            dataset, *_indices(len(dataset), left_size, right_size, shuffle, seed)
        )
    arrays, batch_size = _as_arrays(dataset)
    total = len(tree.flatten(arrays)[0])
    halves = [_rows(arrays, i) for i in _indices(total, left_size, right_size, shuffle, seed)]
    if tensorflow_installed():
        return tuple(tf_pipelines().slices_dataset(half, batch_size) for half in halves)
    return tuple(ArrayDataset.from_arrays(half, batch_size=batch_size) for half in halves)
