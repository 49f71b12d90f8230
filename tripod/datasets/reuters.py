"""`tripod.datasets.reuters`: the reuters dataset; the code lives in tripod/data/datasets/reuters.py."""

from tripod.data.datasets.reuters import get_label_names, get_word_index, load_data

__all__ = ["get_label_names", "get_word_index", "load_data"]
