"""California Housing (1990 US census): 20,640 block groups with 8 features each (median income,
house age, average rooms and bedrooms, population, average occupancy, latitude, longitude) and
the median house value in dollars as target."""

import numpy as np

from tripod.data.datasets.origins import KERAS_DATASETS_URL
from tripod.data.datasets.splits import check_test_split, shuffle_and_split
from tripod.data.get_file import get_file

#: the sha256 of Keras's `california_housing.npz`
FILE_HASH = "1a2e3a52e0398de6463aebe6f4a8da34fb21fbb6b934cf88c3425e766f2a1a6f"
#: how many of the first samples the "small" version keeps
SMALL_SIZE = 600
VERSIONS = ("small", "large")


def load_data(version="large", path="california_housing.npz", test_split=0.2, seed=113):
    """((x_train, y_train), (x_test, y_test)): features (N, 8) and targets (N,), shuffled with
    `seed`; "small" keeps the first 600 samples, "large" all of them."""
    if version not in VERSIONS:
        raise ValueError(f"version should be one of {VERSIONS}. Received: version={version!r}")
    check_test_split(test_split)
    origin = f"{KERAS_DATASETS_URL}california_housing.npz"
    path = get_file(path, origin=origin, file_hash=FILE_HASH)
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    if version == "small":
        x, y = x[:SMALL_SIZE], y[:SMALL_SIZE]
    return shuffle_and_split(x, y, test_split, seed)
