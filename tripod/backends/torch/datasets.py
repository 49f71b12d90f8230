"""torch data sets for `split_dataset(..., preferred_backend="torch")`, as Keras 3 returns
them: `torch.utils.data.Subset`s of the given data set, or of a `TensorDataset` over arrays.

Nothing here imports the rest of tripod; `tripod.data.split_dataset` reaches it only when
torch data sets are asked for.
"""

import numpy as np
import torch
from torch.utils import data


def is_dataset(x):
    """Whether `x` is a `torch.utils.data.Dataset`."""
    return isinstance(x, data.Dataset)


def tensor_dataset(arrays):
    """A `TensorDataset` over a tuple of equally long arrays (items are tuples of rows)."""
    return data.TensorDataset(*(torch.from_numpy(np.ascontiguousarray(a)) for a in arrays))


def subsets(dataset, left_indices, right_indices):
    """(Subset, Subset) of `dataset` at the given sample indices."""
    return (
        data.Subset(dataset, [int(i) for i in left_indices]),
        data.Subset(dataset, [int(i) for i in right_indices]),
    )
