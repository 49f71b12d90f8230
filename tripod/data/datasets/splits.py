"""Seeded shuffling and the train/test split of the datasets that ship as one array (Boston and
California housing, Reuters), in Keras's order so the same seed gives the same split."""

import numpy as np


def check_test_split(test_split):
    """Raise a ValueError unless 0 <= test_split < 1."""
    if not 0 <= test_split < 1:
        raise ValueError(f"test_split should be in [0, 1). Received: test_split={test_split}")


def shuffled(rng, *arrays):
    """`arrays` (of equal length) in one random order drawn from the `np.random.RandomState`."""
    indices = np.arange(len(arrays[0]))
    rng.shuffle(indices)
    return tuple(array[indices] for array in arrays)


def split_point(length, test_split):
    """How many of `length` samples go to the training set."""
    return int(length * (1 - test_split))


def shuffle_and_split(x, y, test_split, seed):
    """((x_train, y_train), (x_test, y_test)) after one seeded shuffle of x and y together."""
    check_test_split(test_split)
    x, y = shuffled(np.random.RandomState(seed), x, y)
    cut = split_point(len(x), test_split)
    return (np.array(x[:cut]), np.array(y[:cut])), (np.array(x[cut:]), np.array(y[cut:]))
