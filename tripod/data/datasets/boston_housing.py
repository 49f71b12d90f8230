"""Boston Housing (StatLib): 506 samples of 13 attributes of Boston suburbs in the 1970s, with
median home values in k$ as targets. Beware: the "B" attribute encodes a racist assumption; use
this dataset only to discuss such problems in data."""

import numpy as np

from tripod.data.datasets.origins import KERAS_DATASETS_URL
from tripod.data.datasets.splits import check_test_split, shuffle_and_split
from tripod.data.get_file import get_file

#: the sha256 of Keras's `boston_housing.npz`
FILE_HASH = "f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5"


def load_data(path="boston_housing.npz", test_split=0.2, seed=113):
    """((x_train, y_train), (x_test, y_test)): features (N, 13) and targets (N,), shuffled with
    `seed`; the last `test_split` of the samples form the test set."""
    check_test_split(test_split)
    path = get_file(path, origin=f"{KERAS_DATASETS_URL}boston_housing.npz", file_hash=FILE_HASH)
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    return shuffle_and_split(x, y, test_split, seed)
