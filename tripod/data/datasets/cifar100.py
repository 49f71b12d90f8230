"""CIFAR-100: 50,000 training and 10,000 test 32x32 colour images of 100 fine classes grouped
into 20 coarse ones."""

import os

from tripod.data.datasets import cifar
from tripod.data.datasets.origins import CIFAR_URL
from tripod.data.get_file import get_file

#: the sha256 of `cifar-100-python.tar.gz`
FILE_HASH = "85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7"
#: the cache entry: the archive is kept as `<DIRNAME>_archive` and extracted into `<DIRNAME>/`
DIRNAME = "cifar-100-python-target"
LABEL_MODES = ("fine", "coarse")


def load_data(label_mode="fine"):
    """((x_train, y_train), (x_test, y_test)): uint8 images (N, 32, 32, 3) (channels_first:
    (N, 3, 32, 32)) and integer labels of shape (N, 1), fine (0-99) or coarse (0-19)."""
    if label_mode not in LABEL_MODES:
        raise ValueError(f"label_mode should be one of {LABEL_MODES}. Received: {label_mode!r}")
    path = get_file(
        fname=DIRNAME,
        origin=f"{CIFAR_URL}cifar-100-python.tar.gz",
        extract=True,
        file_hash=FILE_HASH,
    )
    folder = os.path.join(path, "cifar-100-python")
    splits = []
    for name in ("train", "test"):
        images, labels = cifar.load_batch(os.path.join(folder, name), f"{label_mode}_labels")
        splits.append((cifar.images_in_data_format(images), cifar.as_column(labels)))
    return tuple(splits)
