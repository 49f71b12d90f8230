"""`get_data_adapter`: pick the adapter for whatever fit/evaluate/predict received."""

import numpy as np

from tripod.backends.common import tree
from tripod.training.data_adapters.array_adapter import (
    ArrayDataAdapter,
    num_samples,
    strings_as_array,
    to_array,
)
from tripod.training.data_adapters.iterable_adapter import (
    generator_adapter,
    is_generator,
    is_tf_dataset,
    is_torch_dataloader,
    tf_dataset_adapter,
    torch_dataloader_adapter,
)
from tripod.training.data_adapters.py_dataset import PyDataset, PyDatasetAdapter

_ACCEPTED = (
    "NumPy arrays, backend tensors, pandas DataFrames/Series, lists/tuples/dicts of them, a Python "
    "generator, a tripod.utils.PyDataset, a tf.data.Dataset or a torch.utils.data.DataLoader"
)


def _is_array_like(x):
    return (
        x is None
        or isinstance(x, (np.ndarray, np.generic))
        or hasattr(x, "shape")
        or isinstance(x, (list, tuple, dict, int, float, bool))
    )


def _plain_arrays(x, y, sample_weight):
    """Whether x is a NumPy array and y, sample_weight are NumPy arrays or None."""
    return (
        isinstance(x, np.ndarray)
        and (y is None or isinstance(y, np.ndarray))
        and (sample_weight is None or isinstance(sample_weight, np.ndarray))
    )


def _source_adapter(x):
    """The adapter factory for a batch-producing source `x`, or None for in-memory arrays."""
    if isinstance(x, PyDataset):
        return "PyDataset", PyDatasetAdapter
    if is_tf_dataset(x):
        return "tf.data.Dataset", tf_dataset_adapter
    if is_torch_dataloader(x):
        return "torch DataLoader", torch_dataloader_adapter
    if is_generator(x):
        return "generator", generator_adapter
    return None


def get_data_adapter(
    x,
    y=None,
    sample_weight=None,
    batch_size=None,
    steps_per_epoch=None,
    shuffle=False,
    class_weight=None,
    check_nan=False,
):
    """The adapter serving batches of `x`: arrays (and structures of them), or a source of batches.

    With `check_nan`, NaN in the data is a ValueError (for batch sources: as each batch arrives).
    """
    x = strings_as_array(x)
    if _plain_arrays(x, y, sample_weight):  # the common case: nothing to detect or check
        return ArrayDataAdapter(
            x, y, sample_weight, batch_size, steps_per_epoch, shuffle, class_weight, check_nan
        )
    source = _source_adapter(x)
    if source is not None:
        kind, factory = source
        for name, value in (("y", y), ("sample_weight", sample_weight)):
            if value is not None:
                raise ValueError(
                    f"`{name}` is not supported when x is a {kind}: the {kind} yields it with x."
                )
        if kind == "PyDataset":
            return factory(x, steps_per_epoch, shuffle, class_weight, check_nan)
        return factory(x, steps_per_epoch, class_weight, check_nan)
    for leaf in tree.flatten((x, y, sample_weight)):
        if not _is_array_like(leaf):
            raise ValueError(
                f"Unrecognized data type: {type(leaf).__name__}. Expected {_ACCEPTED}."
            )
    return ArrayDataAdapter(
        x, y, sample_weight, batch_size, steps_per_epoch, shuffle, class_weight, check_nan
    )


def train_validation_split(arrays, validation_split):
    """Split arrays into (train, validation): the last `validation_split` fraction, unshuffled."""
    if not 0.0 < validation_split < 1.0:
        raise ValueError(f"validation_split must be in (0, 1), received {validation_split}.")
    for leaf in tree.flatten(arrays):
        if leaf is not None and not hasattr(leaf, "shape"):
            raise ValueError(
                "validation_split is only supported for arrays (NumPy, tensors, DataFrames); "
                f"received {type(leaf).__name__}. Pass validation_data instead."
            )
    arrays = tree.map_structure(lambda a: None if a is None else to_array(a), arrays)
    total = num_samples(arrays)
    split_at = int(total * (1.0 - validation_split))
    if split_at == 0 or split_at == total:
        raise ValueError(
            f"validation_split={validation_split} leaves an empty split of {total} samples."
        )

    def part(start, stop):
        return tree.map_structure(lambda a: None if a is None else a[start:stop], arrays)

    return part(0, split_at), part(split_at, total)
