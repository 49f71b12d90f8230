"""CIFAR-10: 50,000 training and 10,000 test 32x32 colour images of 10 classes (airplane,
automobile, bird, cat, deer, dog, frog, horse, ship, truck)."""

import os

import numpy as np

from tripod.data.datasets import cifar
from tripod.data.datasets.origins import CIFAR_URL
from tripod.data.get_file import get_file

#: the sha256 of `cifar-10-python.tar.gz`
FILE_HASH = "6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce"
#: the cache entry: the archive is kept as `<DIRNAME>_archive` and extracted into `<DIRNAME>/`
DIRNAME = "cifar-10-batches-py-target"
TRAIN_BATCHES = tuple(f"data_batch_{i}" for i in range(1, 6))


def load_data():
    """((x_train, y_train), (x_test, y_test)): uint8 images (N, 32, 32, 3) (channels_first:
    (N, 3, 32, 32)) and uint8 labels 0-9 of shape (N, 1)."""
    path = get_file(
        fname=DIRNAME,
        origin=f"{CIFAR_URL}cifar-10-python.tar.gz",
        extract=True,
        file_hash=FILE_HASH,
    )
    folder = os.path.join(path, "cifar-10-batches-py")
    batches = [cifar.load_batch(os.path.join(folder, name)) for name in TRAIN_BATCHES]
    x_train = np.concatenate([images for images, _ in batches])
    y_train = np.concatenate([labels for _, labels in batches])
    x_test, y_test = cifar.load_batch(os.path.join(folder, "test_batch"))
    return (
        (cifar.images_in_data_format(x_train), cifar.as_column(y_train, "uint8")),
        (cifar.images_in_data_format(x_test), cifar.as_column(y_test, "uint8")),
    )
