"""What CIFAR-10 and CIFAR-100 share: reading a pickled python batch safely, and the image
layout that follows `tripod.config.image_data_format()`."""

import numpy as np

from tripod.backends import config
from tripod.data.datasets.safe_pickle import load_pickle


def load_batch(fpath, label_key="labels"):
    """(images, labels) of one CIFAR python batch file: uint8 images (N, 3, 32, 32) and the
    labels under `label_key` as a NumPy integer array."""
    with open(fpath, "rb") as f:
        batch = load_pickle(f, encoding="bytes")
    entries = batch.items() if isinstance(batch, dict) else ()
    batch = {key.decode("utf8") if isinstance(key, bytes) else key: v for key, v in entries}
    if "data" not in batch or label_key not in batch:
        raise ValueError(f"{fpath} is not a CIFAR batch: a dict with 'data' and {label_key!r}.")
    data = np.asarray(batch["data"], dtype="uint8")
    return data.reshape(len(data), 3, 32, 32), np.asarray(batch[label_key])


def images_in_data_format(images):
    """Images (N, 3, 32, 32) moved to (N, 32, 32, 3) when the image data format is
    channels_last."""
    if config.image_data_format() == "channels_last":
        return images.transpose(0, 2, 3, 1)
    return images


def as_column(labels, dtype=None):
    """Labels as a (N, 1) column, cast to `dtype` when given."""
    labels = np.reshape(labels, (len(labels), 1))
    return labels if dtype is None else labels.astype(dtype)
