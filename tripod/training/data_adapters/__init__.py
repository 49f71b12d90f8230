"""Data adapters: turn what fit/evaluate/predict receive into batches."""

from tripod.training.data_adapters.array_adapter import ArrayDataAdapter, num_samples, to_array
from tripod.training.data_adapters.select import get_data_adapter, train_validation_split

__all__ = ["ArrayDataAdapter", "get_data_adapter", "num_samples", "to_array", "train_validation_split"]
