"""`tripod.preprocessing`: Keras's legacy preprocessing namespace, kept so that code written for
it runs; each name is the one in `tripod.utils` (the preprocessing layers are in
`tripod.layers`)."""

from tripod.data.image_dataset import image_dataset_from_directory
from tripod.data.text_dataset import text_dataset_from_directory
from tripod.data.timeseries_dataset import timeseries_dataset_from_array
from tripod.preprocessing import image, sequence

__all__ = [
    "image",
    "image_dataset_from_directory",
    "sequence",
    "text_dataset_from_directory",
    "timeseries_dataset_from_array",
]
