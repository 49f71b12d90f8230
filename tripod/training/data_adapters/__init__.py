"""Data adapters: turn what fit/evaluate/predict receive into batches."""

from tripod.training.data_adapters.array_adapter import ArrayDataAdapter, num_samples, to_array
from tripod.training.data_adapters.batches import pack_x_y_sample_weight, unpack_x_y_sample_weight
from tripod.training.data_adapters.select import get_data_adapter, train_validation_split

__all__ = [
    "ArrayDataAdapter", "get_data_adapter", "num_samples", "pack_x_y_sample_weight", "to_array",
    "train_validation_split", "unpack_x_y_sample_weight",
]  # fmt: skip
