"""`get_data_adapter`: pick the adapter for whatever fit/evaluate/predict received."""

import numpy as np

from tripod.backends.common import tree
from tripod.training.data_adapters.array_adapter import ArrayDataAdapter, num_samples, to_array


def _is_array_like(x):
    return x is None or isinstance(x, np.ndarray) or hasattr(x, "shape") or isinstance(x, (list, tuple, dict))


def get_data_adapter(x, y=None, sample_weight=None, batch_size=None, steps_per_epoch=None,
                     shuffle=False, class_weight=None):  # fmt: skip
    """The adapter serving batches of `x` (arrays and structures of arrays)."""
    if all(_is_array_like(leaf) for leaf in tree.flatten(x)):
        return ArrayDataAdapter(x, y, sample_weight, batch_size, steps_per_epoch, shuffle, class_weight)
    raise ValueError(f"Unrecognized data type for x: {type(x).__name__}.")


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
        raise ValueError(f"validation_split={validation_split} leaves an empty split of {total} samples.")

    def part(start, stop):
        return tree.map_structure(lambda a: None if a is None else a[start:stop], arrays)

    return part(0, split_at), part(split_at, total)
