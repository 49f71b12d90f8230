"""The optimizer step compiled by the backend (jax.jit over a pure step, tf.function, eager
torch) and as a pure function (`stateless_apply`) gives the eager results."""

import numpy as np
import pytest

from tests.training.optimizers.conftest import (
    assert_trajectories_close,
    make_data,
    make_variables,
    run,
)
from tripod.backends import active, config
from tripod.backends.common import stateless
from tripod.training import optimizers

ops = active()

CASES = [
    lambda: optimizers.Adam(learning_rate=0.05, amsgrad=True, clipnorm=0.5),
    lambda: optimizers.SGD(learning_rate=0.05, momentum=0.9, nesterov=True, weight_decay=0.1),
    lambda: optimizers.Nadam(
        learning_rate=0.05, gradient_accumulation_steps=2, use_ema=True, ema_overwrite_frequency=2
    ),
    lambda: optimizers.Adafactor(learning_rate=0.05, global_clipnorm=1.0),
    lambda: optimizers.Ftrl(learning_rate=0.05, l1_regularization_strength=0.01),
    lambda: optimizers.Lamb(learning_rate=0.05),
    lambda: optimizers.LossScaleOptimizer(
        optimizers.RMSprop(learning_rate=0.05, centered=True), initial_scale=4.0
    ),
    lambda: optimizers.Muon(learning_rate=0.05, weight_decay=0.1),
    lambda: optimizers.ScheduleFreeAdamW(learning_rate=0.05, warmup_steps=2),
    lambda: optimizers.MultiOptimizer(
        optimizers.OptimizerMap(
            optimizers.SGD(learning_rate=0.05, momentum=0.9),
            {".*bias": optimizers.Adam(learning_rate=0.05)},
        )
    ),
]
# XLA (jit_compile=True) on the cases whose updates are selected by value; torch.compile is slow
XLA_CASES = (2, 6) if config.backend() in ("jax", "tensorflow") else ()
COMPILED = [(i, "auto") for i in range(len(CASES))] + [(i, True) for i in XLA_CASES]


def _setup(make):
    """A fresh optimizer, initial weights and gradients; the LossScaleOptimizer also gets a
    non-finite step, which it skips."""
    optimizer = make()
    init, grads = make_data(steps=5)
    if isinstance(optimizer, optimizers.LossScaleOptimizer):
        grads[2][1] = np.array([np.inf, 1.0], "float32")
    return optimizer, init, grads


def _eager(make):
    """The eager run: (trajectory, optimizer) and the (init, grads) it used."""
    optimizer, init, grads = _setup(make)
    return run(optimizer, make_variables(init), grads), optimizer


@pytest.mark.skipif(config.backend() == "numpy", reason="the numpy backend does not train")
@pytest.mark.parametrize("case, jit_compile", COMPILED, ids=[f"case{i}-{j}" for i, j in COMPILED])
def test_compiled_step_matches_eager(case, jit_compile):
    make = CASES[case]
    expected, _ = _eager(make)
    optimizer, init, grads = _setup(make)
    variables = make_variables(init)
    optimizer.build(variables)
    step = ops.compile_step(
        lambda batch: optimizer.apply(list(batch), variables),
        variables + optimizer.variables,
        "train",
        jit_compile,
        False,
    )
    trajectory = []
    for g in grads:
        step(tuple(ops.convert_to_tensor(x) for x in g))
        step.sync()
        trajectory.append([v.numpy() for v in variables])
    assert_trajectories_close(trajectory, expected)


@pytest.mark.parametrize("make", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_stateless_apply(make):
    expected, reference_optimizer = _eager(make)
    optimizer, init, grads = _setup(make)
    variables = make_variables(init)
    optimizer.build(variables)
    trainable = [ops.convert_to_tensor(w) for w in init]
    state = [v.value for v in optimizer.variables]
    for g in grads:
        trainable, state = optimizer.stateless_apply(
            state, [ops.convert_to_tensor(x) for x in g], trainable
        )
    assert_trajectories_close([[ops.convert_to_numpy(t) for t in trainable]], expected[-1:])
    for got, want in zip(state, reference_optimizer.variables):
        np.testing.assert_allclose(ops.convert_to_numpy(got), want.numpy(), rtol=1e-5, atol=1e-6)
    for v, w in zip(variables, init):  # nothing was mutated
        np.testing.assert_array_equal(v.numpy(), w)
    assert int(optimizer.variables[0].numpy()) == 0


@pytest.mark.skipif(config.backend() != "jax", reason="jax.jit is JAX's")
@pytest.mark.parametrize("make", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_stateless_apply_under_jax_jit(make):
    jax = pytest.importorskip("jax")
    expected, _ = _eager(make)
    optimizer, init, grads = _setup(make)
    optimizer.build(make_variables(init))
    jitted = jax.jit(optimizer.stateless_apply)
    trainable, state = (
        [ops.convert_to_tensor(w) for w in init],
        [v.value for v in optimizer.variables],
    )
    for g in grads:
        trainable, state = jitted(state, [ops.convert_to_tensor(x) for x in g], trainable)
    assert_trajectories_close([[np.asarray(t) for t in trainable]], expected[-1:])


def test_stateless_apply_needs_a_built_optimizer():
    with pytest.raises(ValueError, match="must be built"):
        optimizers.SGD().stateless_apply([], [], [])


def test_stateless_scope_records_instead_of_assigning():
    variable = ops.Variable(np.ones(2, "float32"))
    optimizer = optimizers.SGD(learning_rate=0.5)
    optimizer.build([variable])
    with stateless.StatelessScope() as scope:
        optimizer.apply([np.ones(2, "float32")], [variable])
    np.testing.assert_array_equal(variable.numpy(), [1.0, 1.0])
    updated = {id(v): value for v, value in scope.updates}
    np.testing.assert_allclose(ops.convert_to_numpy(updated[id(variable)]), [0.5, 0.5])
