"""MNIST: 60,000 training and 10,000 test 28x28 grayscale images of handwritten digits."""

import numpy as np

from tripod.data.datasets.origins import KERAS_DATASETS_URL
from tripod.data.get_file import get_file

#: the sha256 of Keras's `mnist.npz`
FILE_HASH = "731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1"


def load_data(path="mnist.npz"):
    """((x_train, y_train), (x_test, y_test)): uint8 images (N, 28, 28) with values 0-255 and
    uint8 digit labels (N,), downloaded once into `~/.keras/datasets/<path>`."""
    path = get_file(fname=path, origin=f"{KERAS_DATASETS_URL}mnist.npz", file_hash=FILE_HASH)
    with np.load(path, allow_pickle=False) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
