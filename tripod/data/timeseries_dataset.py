"""`timeseries_dataset_from_array`: sliding windows over a sequence, with their targets."""

import numpy as np

from tripod.data.array_dataset import ArrayDataset
from tripod.data.formats import resolve_format, tf_pipelines


class Windows:
    """Sample `i`: the window `data[positions[i] + offsets]`, with `targets[positions[i]]`."""

    def __init__(self, data, targets, positions, offsets):
        self.data = data
        self.targets = targets
        self.positions = positions
        self.offsets = offsets

    def __call__(self, index):
        start = self.positions[index]
        window = self.data[start + self.offsets]
        return window if self.targets is None else (window, self.targets[start])


def _in_range(name, value, low, high):
    """A ValueError unless low <= value < high (None bounds are open)."""
    if (low is not None and value < low) or (high is not None and value >= high):
        bounds = f"[{low if low is not None else '-inf'}, {high if high is not None else 'inf'})"
        raise ValueError(
            f"timeseries_dataset_from_array: `{name}` must be in {bounds}, received {value}"
        )


def _check(length, sequence_stride, sampling_rate, start_index, end_index):
    """A ValueError naming the first argument out of range for data of `length` steps."""
    if start_index is not None:
        _in_range("start_index", start_index, 0, length)
    if end_index is not None:
        _in_range("end_index", end_index, (start_index or 0) + 1, length)
    _in_range("sampling_rate", sampling_rate, 1, length)
    _in_range("sequence_stride", sequence_stride, 1, length)


def _start_positions(
    length, targets, sequence_length, sequence_stride, sampling_rate, shuffle, seed
):
    """The window starts (relative to `start_index`), shuffled by `seed` when `shuffle`."""
    count = length - (sequence_length - 1) * sampling_rate
    if targets is not None:
        count = min(count, len(targets))
    positions = np.arange(0, max(count, 0), sequence_stride, dtype="int64")
    if shuffle:
        np.random.RandomState(seed).shuffle(positions)
    return positions


def timeseries_dataset_from_array(
    data,
    targets,
    sequence_length,
    sequence_stride=1,
    sampling_rate=1,
    batch_size=128,
    shuffle=False,
    seed=None,
    start_index=None,
    end_index=None,
    format="tf",
):
    """Batches of windows over `data` (steps along its first axis), with their targets.

    Window i covers steps `s, s + sampling_rate, ...` (`sequence_length` of them) where
    `s = start_index + i * sequence_stride`; only `data[start_index:end_index]` is used, and
    window i's target is `targets[s]` (None: windows only). With `shuffle`, windows come in
    an order drawn from `seed`. `format="tf"` returns a `tf.data.Dataset` when TensorFlow is
    installed, else, like `format="tripod"`, a `tripod.data.ArrayDataset`.

    >>> ds = timeseries_dataset_from_array(np.arange(6), None, 3, format="tripod")
    >>> next(iter(ds)).tolist()
    [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5]]
    """
    format = resolve_format(format, "timeseries_dataset_from_array")
    _check(len(data), sequence_stride, sampling_rate, start_index, end_index)
    start_index = start_index or 0
    end_index = len(data) if end_index is None else end_index
    if shuffle and seed is None:
        seed = int(np.random.randint(1e6))
    data = np.asarray(data[start_index:end_index])
    targets = None if targets is None else np.asarray(targets[start_index:end_index])
    positions = _start_positions(
        len(data), targets, sequence_length, sequence_stride, sampling_rate, shuffle, seed
    )
    offsets = np.arange(sequence_length, dtype="int64") * sampling_rate
    if format == "tf":
        return tf_pipelines().timeseries_dataset(
            data, targets, positions, offsets, batch_size, shuffle, seed
        )
    windows = Windows(data, targets, positions, offsets)
    return ArrayDataset(windows, len(positions), batch_size, shuffle, seed)
