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
