"""Loading the word -> index JSON files of the IMDB and Reuters datasets."""

import json

from tripod.data.datasets.origins import KERAS_DATASETS_URL
from tripod.data.get_file import get_file


def load_word_index(path, origin_name, file_hash):
    """The dict word -> index stored in `origin_name` on Keras's dataset host, cached at `path`."""
    path = get_file(fname=path, origin=KERAS_DATASETS_URL + origin_name, file_hash=file_hash)
    with open(path, encoding="utf-8") as f:
        return json.load(f)
