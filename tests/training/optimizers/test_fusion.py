"""Fused updates: where variables can share storage (torch), an elementwise rule updates all
variables at once. The results must be exactly those of updating them one by one, and the
variables must stay independent, savable and excludable from weight decay."""

import numpy as np
import pytest

from tests.training.optimizers.conftest import make_data, make_variables, run
from tripod.backends import active
from tripod.training import optimizers

ops = active()

ELEMENTWISE = [
    ("SGD", {"momentum": 0.9, "nesterov": True}),
    ("Adam", {"amsgrad": True}),
    ("AdamW", {"weight_decay": 0.1}),
    ("Adamax", {}),
    ("Nadam", {}),
    ("RMSprop", {"momentum": 0.5, "centered": True}),
    ("Adagrad", {}),
    ("Adadelta", {"learning_rate": 1.0}),
    ("Lion", {}),
    ("Ftrl", {"l1_regularization_strength": 0.01, "l2_shrinkage_regularization_strength": 0.01}),
    ("Adam", {"global_clipnorm": 0.5, "use_ema": True}),
    ("ScheduleFreeAdamW", {"warmup_steps": 2, "weight_decay": 0.1}),
]


def _states(optimizer, variables):
    return [v.numpy() for v in variables] + [v.numpy() for v in optimizer.variables]


@pytest.mark.parametrize("name, args", ELEMENTWISE, ids=[f"{n}-{a}" for n, a in ELEMENTWISE])
def test_all_at_once_equals_one_by_one(name, args):
    """Build order fuses where the backend can; the reversed order updates variable by
    variable. Both must give the same bits."""
    init, grads = make_data(steps=5)
    args = {"learning_rate": 0.05, **args}
    fused_vars, single_vars = make_variables(init), make_variables(init)
    fused = getattr(optimizers, name)(**args)
    single = getattr(optimizers, name)(**args)
    single.build(single_vars)
    run(fused, fused_vars, grads)
    run(single, single_vars[::-1], [step[::-1] for step in grads])
    for a, b in zip(_states(fused, fused_vars), _states(single, single_vars)):
        np.testing.assert_array_equal(a, b)


def test_variables_stay_independent_and_savable(data):
    init, grads = data
    variables = make_variables(init)
    optimizer = optimizers.SGD(learning_rate=0.1, momentum=0.9)
    run(optimizer, variables, grads)
    assert len(optimizer.momentums) == len(variables)
    assert len(optimizer.variables) == 2 + len(variables)  # iteration, learning rate, momentums
    before = [v.numpy() for v in variables]
    variables[0].assign(np.zeros(init[0].shape, "float32"))
    np.testing.assert_array_equal(variables[1].numpy(), before[1])
    store = {}
    optimizer.save_own_variables(store)
    restored = optimizers.SGD(learning_rate=0.1, momentum=0.9)
    restored.build(make_variables(init))
    restored.load_own_variables(store)
    for a, b in zip(restored.variables, optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_excluding_from_weight_decay_after_updates():
    """An exclusion made after fused updates started applies from the next update on."""
    init, _ = make_data()
    variables = make_variables(init)
    zeros = [[np.zeros_like(w) for w in init]]
    optimizer = optimizers.SGD(learning_rate=0.5, weight_decay=0.2)
    run(optimizer, variables, zeros)
    optimizer.exclude_from_weight_decay(var_list=[variables[1]])
    run(optimizer, variables, zeros)
    np.testing.assert_allclose(variables[0].numpy(), init[0] * 0.9 * 0.9, rtol=1e-6)
    np.testing.assert_allclose(variables[1].numpy(), init[1] * 0.9, rtol=1e-6)


def test_two_optimizers_sharing_a_variable():
    """A variable updated by two optimizers gets every update from both: the second cannot
    re-fuse it away from the first, whose next update must still reach it."""
    init, grads = make_data(steps=1)
    shared, first_only, second_only = (
        ops.Variable(init[0].copy(), name=n) for n in ("shared", "a", "b")
    )
    first, second = optimizers.SGD(0.1), optimizers.SGD(0.1)
    step = grads[0][0]
    first.apply([step, step], [shared, first_only])
    second.apply([step, step], [shared, second_only])
    first.apply([step, step], [shared, first_only])
    np.testing.assert_allclose(shared.numpy(), init[0] - 0.3 * step, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(first_only.numpy(), init[0] - 0.2 * step, rtol=1e-5, atol=1e-6)
