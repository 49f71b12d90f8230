"""Every loss class against its NumPy reference, for each reduction and sample-weight shape."""

import numpy as np
import pytest

from tests.training.losses import reference as R
from tests.training.losses.cases import CLASS_CASES
from tests.training.losses.helpers import assert_close, native

REDUCTIONS = ["sum_over_batch_size", "sum", "mean", "mean_with_sample_weight", "none", None]


def _sample_weights(values):
    """None, a scalar, and for per-sample values one weight per sample (as (n,) and (n, 1))."""
    weights = [None, 2.0]
    if values.ndim:
        per_sample = np.linspace(0.0, 2.0, values.shape[0]).astype("float32")
        weights += [per_sample, per_sample[:, None]]
    return weights


# The reductions are shared code that every other case covers; CTC, slow per call in eager JAX,
# runs two of them.
SLOW = {"CTC"}
PARAMS = [
    pytest.param(case, reduction, id=f"{case[0]}-{reduction}")
    for case in CLASS_CASES
    for reduction in REDUCTIONS
    if case[0] not in SLOW or reduction in ("sum_over_batch_size", "none")
]


@pytest.mark.parametrize("case, reduction", PARAMS)
def test_class_matches_reference(case, reduction):
    name, cls, reference, (y_true, y_pred), options, mask_maker = case
    loss = cls(reduction=reduction, **options)
    values = reference(y_true, y_pred, **options)
    mask = mask_maker(options)(y_true, y_pred)
    for sample_weight in _sample_weights(values):
        expected = R.reduce(values, sample_weight, reduction, mask)
        result = loss(native(y_true), native(y_pred), sample_weight=native(sample_weight))
        assert_close(result, expected, rtol=2e-5, what=f"{name} sample_weight={sample_weight}")
