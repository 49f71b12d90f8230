"""`tripod.datasets.imdb`: the imdb dataset; the code lives in tripod/data/datasets/imdb.py."""

from tripod.data.datasets.imdb import get_word_index, load_data

__all__ = ["get_word_index", "load_data"]
