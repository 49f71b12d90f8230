"""Reuters: 11,228 newswires labelled over 46 topics, each a list of word indices ranked by
frequency (index 1 is the most frequent)."""

import numpy as np

from tripod.data.datasets import word_sequences as ws
from tripod.data.datasets.origins import KERAS_DATASETS_URL
from tripod.data.datasets.safe_pickle import load_npz
from tripod.data.datasets.splits import check_test_split, shuffled, split_point
from tripod.data.datasets.word_index import load_word_index
from tripod.data.get_file import get_file

#: the sha256 of Keras's `reuters.npz`
FILE_HASH = "d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916"
#: the md5 of Keras's `reuters_word_index.json`
WORD_INDEX_HASH = "4d44cc38712099c9e383dc6e5f11a921"
#: the 46 topics, by label index
LABEL_NAMES = (
    "cocoa",
    "grain",
    "veg-oil",
    "earn",
    "acq",
    "wheat",
    "copper",
    "housing",
    "money-supply",
    "coffee",
    "sugar",
    "trade",
    "reserves",
    "ship",
    "cotton",
    "carcass",
    "crude",
    "nat-gas",
    "cpi",
    "money-fx",
    "interest",
    "gnp",
    "meal-feed",
    "alum",
    "oilseed",
    "gold",
    "tin",
    "strategic-metal",
    "livestock",
    "retail",
    "ipi",
    "iron-steel",
    "rubber",
    "heat",
    "jobs",
    "lei",
    "bop",
    "zinc",
    "orange",
    "pet-chem",
    "dlr",
    "gas",
    "silver",
    "wpi",
    "hog",
    "lead",
)


def load_data(
    path="reuters.npz",
    num_words=None,
    skip_top=0,
    maxlen=None,
    test_split=0.2,
    seed=113,
    start_char=1,
    oov_char=2,
    index_from=3,
):
    """((x_train, y_train), (x_test, y_test)): object arrays of index lists and integer topic
    labels; the newswires are shuffled with `seed`, encoded as in `imdb.load_data`, and the last
    `test_split` of them form the test set."""
    check_test_split(test_split)
    path = get_file(fname=path, origin=f"{KERAS_DATASETS_URL}reuters.npz", file_hash=FILE_HASH)
    arrays = load_npz(path)
    xs, labels = shuffled(np.random.RandomState(seed), arrays["x"], arrays["y"])
    xs = ws.offset(xs, start_char, index_from)
    if maxlen:
        xs, labels = ws.drop_long(maxlen, xs, labels)
    xs = ws.cut_vocabulary(xs, num_words, skip_top, oov_char)
    cut = split_point(len(xs), test_split)
    return (
        (ws.object_array(xs[:cut]), np.array(labels[:cut])),
        (ws.object_array(xs[cut:]), np.array(labels[cut:])),
    )


def get_word_index(path="reuters_word_index.json"):
    """The dict word -> rank of the Reuters newswires (add `index_from` to match `load_data`)."""
    return load_word_index(path, "reuters_word_index.json", WORD_INDEX_HASH)


def get_label_names():
    """The topic names, indexed like the labels `load_data` returns."""
    return LABEL_NAMES
