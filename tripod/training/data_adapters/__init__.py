"""Data adapters: turn what fit/evaluate/predict receive into batches."""

from tripod.training.data_adapters.array_adapter import (
    ArrayDataAdapter,
    check_no_nan,
    num_samples,
    to_array,
)
from tripod.training.data_adapters.batches import pack_x_y_sample_weight, unpack_x_y_sample_weight
from tripod.training.data_adapters.iterable_adapter import IterableDataAdapter
from tripod.training.data_adapters.py_dataset import PyDataset, PyDatasetAdapter
from tripod.training.data_adapters.select import get_data_adapter, train_validation_split

__all__ = [
    "ArrayDataAdapter",
    "IterableDataAdapter",
    "PyDataset",
    "PyDatasetAdapter",
    "check_no_nan",
    "get_data_adapter",
    "num_samples",
    "pack_x_y_sample_weight",
    "to_array",
    "train_validation_split",
    "unpack_x_y_sample_weight",
]
