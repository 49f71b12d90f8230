"""Op-specific dtype rules of `common.dtype_rules` added for the shared backend code."""

import numpy as np
import pytest

from tripod.backends import config
from tripod.backends.common import dtype_rules


@pytest.mark.parametrize(
    "dtype, lowest",
    [("float16", -np.inf), ("int8", -128), ("uint16", 0), ("int64", np.iinfo("int64").min)],
)
def test_lowest_never_wins_a_max(dtype, lowest):
    assert dtype_rules.lowest(np.dtype(dtype)) == lowest


def test_lowest_of_bool_is_false():
    assert dtype_rules.lowest(np.dtype("bool")) is False
    assert dtype_rules.lowest("bool") is False


def test_sequence_dtype_follows_the_python_scalar_rule():
    assert dtype_rules.sequence_dtype(np.asarray([1.5]).dtype) == np.dtype(config.floatx())
    assert dtype_rules.sequence_dtype(np.asarray([1, 2]).dtype) == np.dtype("int32")
    for kept in ("bool", "complex128", "float32", "uint8", "<U3"):
        assert dtype_rules.sequence_dtype(np.dtype(kept)) == np.dtype(kept)
