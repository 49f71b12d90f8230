"""`compare` and `ParityReport` on hand-made arrays: allclose semantics, NaN, shape and dtype."""

import json

import numpy as np
import pytest

from tripod.backends.common.compare import compare, missing
from tripod.testing import ParityError, ParityReport

REF = np.array([1.0, -2.0, 0.0, 1e-3], "float32")


def check(value, reference=REF, atol=1e-5, rtol=1e-5):
    return compare("y", "output", "jax", np.asarray(value), reference, atol, rtol)


def test_differences_follow_allclose():
    value = REF + np.array([3e-5, -1e-5, 5e-6, 0.0], "float32")
    found = check(value)
    diff = np.abs(value.astype(np.float64) - REF)
    assert (
        found.max_abs == diff.max()
        and found.max_rel == (diff[REF != 0] / np.abs(REF[REF != 0])).max()
    )
    expected_bad = int(np.sum(~np.isclose(value, REF, atol=1e-5, rtol=1e-5)))
    assert found.mismatched == expected_bad == 1 and not found.ok
    assert found.describe() == "1/4 elements outside tolerance"
    assert check(REF).ok and check(REF).max_abs == 0 and check(REF).max_rel == 0


def test_nan_inf_shape_and_dtype_problems():
    with_nan = check(np.array([np.nan, -2.0, 0.0, 1e-3], "float32"))
    assert with_nan.problem == "1 NaN where the reference has a number" and with_nan.mismatched == 1
    both_nan = np.array([np.nan, np.inf, -np.inf], "float32")
    assert check(both_nan, both_nan).ok
    assert not check(np.array([np.nan, -np.inf, -np.inf], "float32"), both_nan).ok
    shape = check(REF[:3])
    assert shape.problem == "shape (3,) != reference shape (4,)" and shape.max_abs is None
    dtype = check(REF.astype("float64"))
    assert dtype.problem == "dtype float64 != reference dtype float32" and dtype.mismatched == 0
    assert not dtype.ok


def test_integers_bools_and_strings_compare_exactly():
    assert check(np.array([1, 2, 3]), np.array([1, 2, 4]), atol=0, rtol=0).mismatched == 1
    assert check(np.array([True, False]), np.array([True, False])).ok
    assert check(np.array(["a", "b"]), np.array(["a", "c"])).mismatched == 1


def test_report_verdict_table_and_json():
    bad = check(np.array([np.inf, -2.0, 0.0, 1e-3], "float32"))
    report = ParityReport("numpy", ["numpy", "jax", "torch"], 1e-5, 1e-5)
    report.comparisons = [bad, missing("extra", "layer", "jax", "jax")]
    report.failures = {"torch": "exit code 1\nImportError: no torch"}
    assert not report.ok and len(report.violations) == 3
    data = json.loads(json.dumps(report.to_dict(), allow_nan=False))
    assert (
        data["comparisons"][0]["max_abs"] == "inf"
        and data["comparisons"][1]["problem"] == "produced only by jax"
    )
    text = str(report)
    assert text.splitlines()[0].endswith(": 3 violation(s)")
    assert "torch FAILED:\nexit code 1\nImportError: no torch" in text
    with pytest.raises(ParityError, match="jax layer 'extra': produced only by jax"):
        report.raise_for_violations()
    assert isinstance(ParityError("x"), AssertionError)
