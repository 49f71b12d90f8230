"""Fashion-MNIST: 60,000 training and 10,000 test 28x28 grayscale images of 10 clothing classes
(0 T-shirt/top, 1 Trouser, 2 Pullover, 3 Dress, 4 Coat, 5 Sandal, 6 Shirt, 7 Sneaker, 8 Bag,
9 Ankle boot), in the IDX files Keras downloads."""

import gzip
import os

import numpy as np

from tripod.data.datasets.origins import KERAS_DATASETS_URL
from tripod.data.get_file import get_file

#: (labels file, images file) of the training and the test set
FILES = {
    "train": ("train-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz"),
    "test": ("t10k-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz"),
}
#: file name -> expected hash; Keras pins none for these files, so neither do we
FILE_HASHES = {}
_IDX_MAGIC = {1: 2049, 3: 2051}


def _read_idx(path, ndim):
    """The uint8 array of a gzipped IDX file with `ndim` dimensions, its header checked."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    start = 4 * (1 + ndim)
    header = np.frombuffer(data, ">u4", count=1 + ndim) if len(data) >= start else [0]
    if header[0] != _IDX_MAGIC[ndim]:
        raise ValueError(f"{path} is not an IDX file of {ndim}-D unsigned bytes.")
    shape = tuple(int(n) for n in header[1:])
    if len(data) - start != int(np.prod(shape)):
        raise ValueError(f"{path}: {len(data) - start} bytes of data do not fill shape {shape}.")
    return np.frombuffer(data, np.uint8, offset=start).reshape(shape)


def _fetch(fname):
    return get_file(
        fname,
        origin=KERAS_DATASETS_URL + fname,
        file_hash=FILE_HASHES.get(fname),
        cache_subdir=os.path.join("datasets", "fashion-mnist"),
    )


def _load_split(split):
    labels_path, images_path = (_fetch(fname) for fname in FILES[split])
    return _read_idx(images_path, 3), _read_idx(labels_path, 1)


def load_data():
    """((x_train, y_train), (x_test, y_test)): uint8 images (N, 28, 28) and uint8 labels (N,),
    downloaded once into `~/.keras/datasets/fashion-mnist/`."""
    return _load_split("train"), _load_split("test")
