"""The word-index encoding shared by the IMDB and Reuters loaders: start and offset characters,
the `maxlen` filter and the `num_words` / `skip_top` vocabulary cut, with Keras's exact semantics
so the same arguments give the same sequences."""

import numpy as np


def offset(sequences, start_char, index_from):
    """Sequences as lists with every index moved up by `index_from`, led by `start_char` when it
    is not None."""
    lead = [] if start_char is None else [start_char]
    return [lead + [int(w) + index_from for w in seq] for seq in sequences]


def drop_long(maxlen, sequences, labels):
    """Only the (sequence, label) pairs whose sequence is shorter than `maxlen`."""
    kept = [(seq, label) for seq, label in zip(sequences, labels) if len(seq) < maxlen]
    return [seq for seq, _ in kept], [label for _, label in kept]


def cut_vocabulary(sequences, num_words, skip_top, oov_char):
    """Indices outside [skip_top, num_words) replaced by `oov_char`, or dropped when it is None.

    Without `num_words` the limit is the largest index present, which (as in Keras) puts that one
    index outside the range too."""
    if not num_words:
        num_words = max(max(seq) for seq in sequences if seq)
    if oov_char is None:
        return [[w for w in seq if skip_top <= w < num_words] for seq in sequences]
    return [[w if skip_top <= w < num_words else oov_char for w in seq] for seq in sequences]


def object_array(sequences):
    """A 1-D object array holding one list per sequence (ragged data, as Keras returns it)."""
    array = np.empty(len(sequences), dtype="object")
    for i, seq in enumerate(sequences):
        array[i] = seq
    return array
