"""timeseries_dataset_from_array: exact Keras windows, hand-computed, in both formats."""

import numpy as np
import pytest

from tests.data.builder_files import FORMATS, batches, fit_or_predict
from tripod import layers
from tripod.data.timeseries_dataset import timeseries_dataset_from_array

DATA = np.arange(20)
TARGETS = np.arange(20) * 10


def windows(dataset):
    """(all windows, all targets) of one pass."""
    parts = batches(dataset)
    if not isinstance(parts[0], tuple):
        return np.concatenate(parts), None
    return np.concatenate([x for x, _ in parts]), np.concatenate([y for _, y in parts])


@pytest.mark.parametrize("format", FORMATS)
def test_consecutive_windows_and_their_targets(format):
    ds = timeseries_dataset_from_array(
        DATA, TARGETS, sequence_length=4, batch_size=5, format=format
    )
    assert len(ds) == 4  # 17 windows
    x, y = windows(ds)
    assert x.shape == (17, 4)
    assert x[0].tolist() == [0, 1, 2, 3] and x[-1].tolist() == [16, 17, 18, 19]
    assert y.tolist() == [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160]


@pytest.mark.parametrize("format", FORMATS)
def test_stride_sampling_rate_and_index_range(format):
    ds = timeseries_dataset_from_array(
        DATA,
        TARGETS,
        sequence_length=3,
        sequence_stride=2,
        sampling_rate=2,
        batch_size=3,
        start_index=2,
        end_index=15,
        format=format,
    )
    x, y = windows(ds)
    # data[2:15] = 2..14; starts 2, 4, ... while start + 4 <= 14
    assert x.tolist() == [[2, 4, 6], [4, 6, 8], [6, 8, 10], [8, 10, 12], [10, 12, 14]]
    assert y.tolist() == [20, 40, 60, 80, 100]
    assert [len(b[0]) for b in batches(ds)] == [3, 2]


@pytest.mark.parametrize("format", FORMATS)
def test_targets_shorter_than_data_bound_the_windows_and_none_gives_windows_only(format):
    x, y = windows(timeseries_dataset_from_array(DATA[:8], TARGETS[:3], 2, format=format))
    assert x.tolist() == [[0, 1], [1, 2], [2, 3]] and y.tolist() == [0, 10, 20]
    x, y = windows(
        timeseries_dataset_from_array(np.arange(12).reshape(6, 2), None, 5, format=format)
    )
    assert y is None and x.shape == (2, 5, 2)
    np.testing.assert_array_equal(x[1], np.arange(2, 12).reshape(5, 2))


@pytest.mark.parametrize("format", FORMATS)
def test_shuffle_keeps_pairs_and_is_seeded(format):
    def run(seed):
        ds = timeseries_dataset_from_array(
            DATA, TARGETS, 3, batch_size=4, shuffle=True, seed=seed, format=format
        )
        return windows(ds)

    x, y = run(5)
    assert sorted(x[:, 0].tolist()) == list(range(18)) and x[:, 0].tolist() != list(range(18))
    np.testing.assert_array_equal(y, x[:, 0] * 10)
    np.testing.assert_array_equal(x[:, 1:], x[:, :1] + [1, 2])
    np.testing.assert_array_equal(run(5)[0], x)


def test_bad_arguments_name_the_argument():
    cases = [
        ({"start_index": -1}, "start_index"),
        ({"start_index": 20}, "start_index"),
        ({"start_index": 5, "end_index": 5}, "end_index"),
        ({"end_index": 25}, "end_index"),
        ({"sampling_rate": 0}, "sampling_rate"),
        ({"sequence_stride": 20}, "sequence_stride"),
        ({"format": "grain"}, "format"),
    ]
    for kwargs, name in cases:
        with pytest.raises(ValueError, match=name):
            timeseries_dataset_from_array(DATA, TARGETS, 3, **kwargs)


@pytest.mark.parametrize("format", FORMATS)
def test_model_trains_on_the_windows(format):
    data = np.sin(np.arange(40, dtype="float32") / 3)[:, None]
    ds = timeseries_dataset_from_array(data[:-5], data[5:, 0], 5, batch_size=8, format=format)
    predictions = fit_or_predict(ds, [layers.Flatten(), layers.Dense(1)], "mse")
    assert predictions.shape == (31, 1)
