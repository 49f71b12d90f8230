"""Gradients of every loss class match finite differences of its NumPy reference, and losses run
inside the backend's compiled step (jit / tf.function) with the batch size changing."""

import numpy as np
import pytest

from tests.training.losses import reference as R
from tests.training.losses.cases import CLASS_CASES
from tests.training.losses.helpers import assert_close, native, ops
from tripod.backends import config

TRAINS = config.backend() != "numpy"


def _numeric_gradient(fn, x, step=1e-6):
    """Central differences of scalar `fn` at float64 `x`."""
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[index] += step
        down[index] -= step
        grad[index] = (fn(up) - fn(down)) / (2 * step)
    return grad


@pytest.mark.skipif(not TRAINS, reason="the numpy backend has no gradients")
@pytest.mark.parametrize("case", CLASS_CASES, ids=[c[0] for c in CLASS_CASES])
def test_gradient_matches_finite_differences(case):
    name, cls, reference, (y_true, y_pred), options, mask_maker = case
    loss = cls(**options)
    mask = mask_maker(options)(y_true, y_pred)
    variable = ops.Variable(y_pred)
    _, (grad,) = ops.value_and_grad(lambda: loss(native(y_true), variable.value), [variable])()

    def reference_loss(prediction):
        return R.reduce(reference(y_true, prediction, **options), mask=mask)

    expected = _numeric_gradient(reference_loss, y_pred.astype(np.float64))
    assert_close(grad, expected, rtol=1e-3, atol=1e-4, what=name)


# One case per code path that compilation could break: value-dependent labels, masks and counts,
# pair matrices, per-sequence lengths, reductions over every axis.
COMPILED = [
    c
    for c in CLASS_CASES
    if c[0]
    in (
        "MeanSquaredError",
        "Hinge",
        "CategoricalCrossentropy",
        "SparseCategoricalCrossentropy_ignore_column",
        "Dice_all_axes",
        "Circle",
        "CTC",
    )
]


@pytest.mark.parametrize("case", COMPILED, ids=[c[0] for c in COMPILED])
def test_compiled_step(case):
    name, cls, reference, (y_true, y_pred), options, mask_maker = case
    loss = cls(**options)
    step = ops.compile_step(lambda batch: loss(*batch), [], "test", None, False)
    for size in (len(y_pred), len(y_pred) - 1):
        t, p = y_true[:size], y_pred[:size]
        expected = R.reduce(reference(t, p, **options), mask=mask_maker(options)(t, p))
        assert_close(step((native(t), native(p))), expected, rtol=2e-5, what=f"{name} batch {size}")
