"""In-memory arrays: pandas objects, and the errors for bad data."""

import numpy as np
import pytest

from tests.training.data_adapters.helpers import BATCH, X, Y, model
from tripod.training.data_adapters import get_data_adapter


def test_pandas_dataframe_and_series():
    pd = pytest.importorskip("pandas")
    m = model()
    frame = pd.DataFrame(X, columns=list("abcd"))
    logs = m.evaluate(
        frame, pd.Series(Y[:, 0]).to_frame(), batch_size=BATCH, verbose=0, return_dict=True
    )
    assert logs == pytest.approx(
        m.evaluate(X, Y, batch_size=BATCH, verbose=0, return_dict=True), rel=1e-6
    )
    np.testing.assert_allclose(m.predict(frame, verbose=0), m.predict(X, verbose=0), rtol=1e-6)


def test_mismatched_lengths_name_each_input():
    with pytest.raises(ValueError, match="same number of samples.*32.*31"):
        get_data_adapter(X, Y[:31])
    with pytest.raises(ValueError, match="same number of samples"):
        get_data_adapter({"a": X, "b": X[:3]})


def test_unknown_data_types_are_named():
    with pytest.raises(ValueError, match="Unrecognized data type: set.*PyDataset"):
        get_data_adapter({1, 2})
    with pytest.raises(ValueError, match="Unrecognized data type: object"):
        get_data_adapter([X, object()])


def test_nan_is_an_error_only_when_asked():
    bad = X.copy()
    bad[3, 1] = bad[5, 2] = np.nan
    get_data_adapter(bad, Y)
    with pytest.raises(ValueError, match=r"2 NaN value\(s\) in x \(shape \(32, 4\)\)"):
        get_data_adapter(bad, Y, check_nan=True)
    with pytest.raises(ValueError, match=r"in y/1"):
        get_data_adapter(X, [Y, np.full_like(Y, np.nan)], check_nan=True)


def _epoch(adapter):
    adapter.on_epoch_begin()
    return list(adapter.get_iterator())


def _rows(n=10):
    """x rows that name their index, y and sample weights that name it too."""
    x = np.repeat(np.arange(n, dtype="float32")[:, None], 3, axis=1)
    return x, np.arange(n, dtype="int64"), np.arange(n, dtype="float32") / 10


def test_unshuffled_batches_are_views_in_order():
    x, y, sw = _rows()
    batches = _epoch(get_data_adapter(x, y, sw, batch_size=4))
    assert [b[1].tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert all(np.shares_memory(b[0], x) and np.shares_memory(b[2], sw) for b in batches)
    (whole,) = _epoch(get_data_adapter(x, y, batch_size=10))
    assert np.shares_memory(whole[0], x) and whole[0].shape == x.shape


def test_shuffled_batches_keep_rows_aligned_and_cover_each_sample_once():
    np.random.seed(3)
    x, y, sw = _rows()
    adapter = get_data_adapter({"a": x, "b": x * 2}, y, sw, batch_size=4, shuffle=True)
    orders = []
    for _ in range(2):
        batches = _epoch(adapter)
        assert [len(b[1]) for b in batches] == [4, 4, 2]
        for bx, by, bsw in batches:
            np.testing.assert_array_equal(bx["a"][:, 0], by)
            np.testing.assert_array_equal(bx["b"][:, 2], 2 * by)
            np.testing.assert_array_equal(bsw, by.astype("float32") / 10)
        order = np.concatenate([b[1] for b in batches])
        assert sorted(order.tolist()) == list(range(10))
        orders.append(order.tolist())
    assert orders[0] != orders[1] and orders[0] != list(range(10))


def test_batch_shuffle_moves_whole_blocks():
    np.random.seed(0)
    x, y, _ = _rows(12)
    batches = _epoch(get_data_adapter(x, y, batch_size=4, shuffle="batch"))
    starts = []
    for bx, by in batches:
        assert by.tolist() == list(range(by[0], by[0] + 4)) and by[0] % 4 == 0
        assert np.shares_memory(bx, x)  # one whole block: a view
        starts.append(int(by[0]))
    assert sorted(starts) == [0, 4, 8]


def test_steps_per_epoch_continues_where_the_last_epoch_stopped():
    x, y, _ = _rows()
    adapter = get_data_adapter(x, y, batch_size=4, steps_per_epoch=2)
    first, second = _epoch(adapter), _epoch(adapter)
    assert [b[1].tolist() for b in first] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert [b[1].tolist() for b in second] == [[8, 9], [0, 1, 2, 3]]


@pytest.mark.parametrize("shuffle", [False, True, "batch"])
def test_executions_gathered_at_once_hold_the_same_batches(shuffle):
    """`get_executions` gives the batches `get_iterator` gives, in the same order (the same
    shuffles drawn), grouped; whole runs are also held stacked, their batches views of it."""
    x = np.arange(23 * 2, dtype="float32").reshape(23, 2)
    y, weights = np.arange(23), np.linspace(0, 1, 23)

    def adapter():
        np.random.seed(5)
        data = get_data_adapter(x, y, weights, batch_size=4, shuffle=shuffle)
        data.on_epoch_begin()
        return data

    batches = list(adapter().get_iterator())  # 6 batches, the last of 3 samples
    executions = list(adapter().get_executions(4))
    assert [len(chunk) for chunk in executions] == [4, 2]
    for got, want in zip([batch for chunk in executions for batch in chunk], batches):
        for part, expected in zip(got, want):
            np.testing.assert_array_equal(part, expected)
    whole, short = executions
    assert [part.shape for part in whole.stacked] == [(4, 4, 2), (4, 4), (4, 4)]
    assert all(np.shares_memory(batch[0], whole.stacked[0]) for batch in whole)
    assert not hasattr(short, "stacked")  # its last batch is short: gathered batch by batch
