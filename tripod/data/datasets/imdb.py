"""IMDB: 25,000 training and 25,000 test movie reviews labelled by sentiment (1 positive,
0 negative), each a list of word indices ranked by frequency (index 1 is the most frequent)."""

import numpy as np

from tripod.data.datasets import word_sequences as ws
from tripod.data.datasets.origins import KERAS_DATASETS_URL
from tripod.data.datasets.safe_pickle import load_npz
from tripod.data.datasets.splits import shuffled
from tripod.data.datasets.word_index import load_word_index
from tripod.data.get_file import get_file

#: the sha256 of Keras's `imdb.npz`
FILE_HASH = "69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f"
#: the md5 of Keras's `imdb_word_index.json`
WORD_INDEX_HASH = "bfafd718b763782e994055a2d397834f"


def load_data(
    path="imdb.npz",
    num_words=None,
    skip_top=0,
    maxlen=None,
    seed=113,
    start_char=1,
    oov_char=2,
    index_from=3,
    **kwargs,
):
    """((x_train, y_train), (x_test, y_test)): object arrays of index lists and integer labels.

    Word indices are moved up by `index_from`, each review starts with `start_char`, indices
    outside [skip_top, num_words) become `oov_char` (dropped when it is None), reviews of
    `maxlen` words or more are left out, and each split is shuffled with `seed`."""
    if kwargs:
        raise TypeError(f"imdb.load_data got unexpected arguments: {sorted(kwargs)}")
    path = get_file(fname=path, origin=f"{KERAS_DATASETS_URL}imdb.npz", file_hash=FILE_HASH)
    arrays = load_npz(path)
    rng = np.random.RandomState(seed)
    x_train, y_train = shuffled(rng, arrays["x_train"], arrays["y_train"])
    x_test, y_test = shuffled(rng, arrays["x_test"], arrays["y_test"])
    x_train = ws.offset(x_train, start_char, index_from)
    x_test = ws.offset(x_test, start_char, index_from)
    if maxlen:
        x_train, y_train = ws.drop_long(maxlen, x_train, y_train)
        x_test, y_test = ws.drop_long(maxlen, x_test, y_test)
        if not x_train or not x_test:
            raise ValueError(f"No review is shorter than maxlen={maxlen}; increase maxlen.")
    xs = ws.cut_vocabulary(x_train + x_test, num_words, skip_top, oov_char)
    labels = np.concatenate([y_train, y_test])
    cut = len(x_train)
    return (ws.object_array(xs[:cut]), labels[:cut]), (ws.object_array(xs[cut:]), labels[cut:])


def get_word_index(path="imdb_word_index.json"):
    """The dict word -> rank of the IMDB reviews (add `index_from` to match `load_data`)."""
    return load_word_index(path, "imdb_word_index.json", WORD_INDEX_HASH)
