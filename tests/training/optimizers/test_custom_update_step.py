"""`update_step(gradient, variable, learning_rate)` is the one public override of an optimizer's
rule (as in Keras 3): a subclass overriding it trains eagerly, as a pure step and inside `fit` on
every backend, and a built-in rule it extends through `super()` computes what it computed."""

import numpy as np
import pytest

import tripod
from tests.training.optimizers.conftest import (
    assert_trajectories_close,
    make_data,
    make_variables,
    run,
)
from tripod.backends import active, config
from tripod.training import optimizers

ops = active()

needs_training = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)


class SignDescent(optimizers.Optimizer):
    """A user's optimizer written the Keras way: its whole rule is `update_step`."""

    def update_step(self, gradient, variable, learning_rate):
        variable.assign_sub(ops.multiply(ops.sign(gradient), learning_rate))


#: the built-in optimizers whose updates share per-step values (bias corrections, a momentum
#: product, a warmup factor) computed once per step
SHARED_PER_STEP = [
    "Adam",
    "Adamax",
    "Nadam",
    "Lamb",
    "Ftrl",
    "Muon",
    "Adafactor",
    "ScheduleFreeAdamW",
]


def _extended(name):
    """A subclass of built-in optimizer `name` that overrides `update_step` only to call the
    built-in rule: it must compute exactly the built-in optimizer's steps."""

    class Extended(getattr(optimizers, name)):
        def update_step(self, gradient, variable, learning_rate):
            super().update_step(gradient, variable, learning_rate)

    return Extended


def test_update_step_is_the_only_public_override():
    public = {name for name in vars(optimizers.Optimizer) if not name.startswith("_")}
    assert "update_step" in public and "step_rule" not in public


def test_a_rule_written_in_update_step_is_applied():
    variables = make_variables(make_data()[0])
    start = [v.numpy() for v in variables]
    grads = [np.array([[1.0, -2.0], [0.0, 3.0], [-1.0, 1.0]], "float32"), np.ones(2, "float32")]
    SignDescent(learning_rate=0.25).apply(grads, variables)
    for variable, before, gradient in zip(variables, start, grads):
        np.testing.assert_allclose(variable.numpy(), before - 0.25 * np.sign(gradient), rtol=1e-6)


@pytest.mark.parametrize("name", SHARED_PER_STEP)
def test_a_subclass_extending_update_step_computes_the_built_in_steps(name):
    """Per-step values are computed once a step however many variables update (Nadam's
    momentum product advances once), and reach a subclass's `super().update_step`."""
    init, grads = make_data(steps=3)
    expected = run(getattr(optimizers, name)(learning_rate=0.05), make_variables(init), grads)
    got = run(_extended(name)(learning_rate=0.05), make_variables(init), grads)
    assert_trajectories_close(got, expected)


@pytest.mark.parametrize("name", SHARED_PER_STEP)
def test_update_step_called_per_variable_outside_apply_sees_one_step(name):
    """A user's own loop calling `update_step` for each variable takes the step `apply` would
    take first (Nadam's momentum product is read, not advanced, once per variable). Weight
    decay is off: `apply` decays around `update_step`."""
    options = {"learning_rate": 0.05, "weight_decay": None}
    options.update({"adam_weight_decay": None} if name == "Muon" else {})
    init, grads = make_data(steps=1)
    expected = run(getattr(optimizers, name)(**options), make_variables(init), grads)
    optimizer, variables = getattr(optimizers, name)(**options), make_variables(init)
    optimizer.build(variables)
    for gradient, variable in zip(grads[0], variables):
        optimizer.update_step(
            ops.convert_to_tensor(gradient), variable, ops.convert_to_tensor(0.05)
        )
    assert_trajectories_close([[np.asarray(v.numpy()) for v in variables]], expected)


@pytest.mark.parametrize("name", ["SignDescent", "Nadam"])
def test_the_pure_step_computes_the_eager_steps(name):
    """`stateless_apply` (how a jitted JAX step runs) with an overridden `update_step`."""
    make = SignDescent if name == "SignDescent" else _extended(name)
    init, grads = make_data(steps=2)
    expected = run(make(learning_rate=0.05), make_variables(init), grads)
    optimizer, variables = make(learning_rate=0.05), make_variables(init)
    optimizer.build(variables)
    trainable, slots = [v.value for v in variables], [v.value for v in optimizer.variables]
    got = []
    for step in grads:
        trainable, slots = optimizer.stateless_apply(
            slots, [ops.convert_to_tensor(g) for g in step], trainable
        )
        got.append([np.asarray(ops.convert_to_numpy(t)) for t in trainable])
    assert_trajectories_close(got, expected)


@needs_training
@pytest.mark.parametrize("jit_compile", ["auto", False])
def test_fit_trains_with_an_optimizer_overriding_update_step(jit_compile):
    """One batch of `fit` moves every kernel entry by exactly the learning rate against the
    sign of its gradient (positive here: the model overshoots its zero targets)."""
    model = tripod.Sequential(
        [tripod.Input((3,)), tripod.layers.Dense(2, use_bias=False, kernel_initializer="ones")]
    )
    model.compile(optimizer=SignDescent(learning_rate=0.125), loss="mse", jit_compile=jit_compile)
    model.fit(np.ones((4, 3), "float32"), np.zeros((4, 2), "float32"), batch_size=4, verbose=0)
    np.testing.assert_allclose(model.layers[0].kernel.numpy(), np.full((3, 2), 0.875))
