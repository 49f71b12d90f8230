"""LossScaleOptimizer: dynamic scaling, skipped non-finite steps, delegation to the inner optimizer."""

import numpy as np
import pytest

from tripod.backends import active
from tripod.training import optimizers

ops = active()


def test_dynamic_scale_sequence():
    variable = ops.Variable(np.zeros(1, "float32"))
    optimizer = optimizers.LossScaleOptimizer(
        optimizers.SGD(learning_rate=1.0), initial_scale=8.0, dynamic_growth_steps=2
    )
    seen = []
    for g in [8.0, np.inf, 4.0, 4.0, 4.0, np.nan]:
        optimizer.apply([np.full(1, g, "float32")], [variable])
        seen.append(
            (
                float(variable.numpy()[0]),
                float(optimizer.dynamic_scale.numpy()),
                int(optimizer.step_counter.numpy()),
                int(optimizer.iterations.numpy()),
            )
        )
    assert seen == [
        (-1.0, 8.0, 1, 1),
        (-1.0, 4.0, 0, 1),
        (-2.0, 4.0, 1, 2),
        (-3.0, 8.0, 0, 3),
        (-3.5, 8.0, 1, 4),
        (-3.5, 4.0, 0, 4),
    ]
    np.testing.assert_allclose(ops.convert_to_numpy(optimizer.scale_loss(2.0)), 8.0)


def test_skipped_step_keeps_inner_state():
    variables = [ops.Variable(np.ones(2, "float32")), ops.Variable(np.ones(1, "float32"))]
    optimizer = optimizers.LossScaleOptimizer(optimizers.Adam(learning_rate=0.1), initial_scale=2.0)
    optimizer.apply([np.full(2, 2.0, "float32"), np.ones(1, "float32")], variables)
    before = [v.numpy().copy() for v in optimizer.variables[4:]] + [
        v.numpy().copy() for v in variables
    ]
    optimizer.apply([np.array([1.0, np.nan], "float32"), np.ones(1, "float32")], variables)
    after = [v.numpy() for v in optimizer.variables[4:]] + [v.numpy() for v in variables]
    for b, a in zip(before, after):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(optimizer.dynamic_scale.numpy(), 1.0)


def test_delegation():
    inner = optimizers.SGD(learning_rate=0.3)
    optimizer = optimizers.LossScaleOptimizer(inner)
    assert optimizer.learning_rate is inner.learning_rate
    optimizer.learning_rate = 0.1
    np.testing.assert_allclose(inner.learning_rate.numpy(), 0.1)
    assert optimizer.iterations is inner.iterations


def test_bad_arguments():
    with pytest.raises(ValueError, match="does not support `clipnorm`"):
        optimizers.LossScaleOptimizer(optimizers.SGD(), clipnorm=1.0)
    with pytest.raises(TypeError, match="inner_optimizer"):
        optimizers.LossScaleOptimizer("sgd")
