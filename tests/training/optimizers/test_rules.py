"""Each optimizer's update rule against its NumPy reference, and its variables in Keras 3's
checkpoint order (iteration, learning_rate, then the slots)."""

import numpy as np
import pytest

from tests import accelerator
from tests.backends.ops.harness import stored_dtype
from tests.training.optimizers import reference
from tests.training.optimizers.conftest import assert_trajectories_close, make_variables, run
from tripod.training import optimizers

# (class, arguments, reference rule, slot groups: names interleaved per variable, groups in turn)
CASES = [
    ("SGD", {}, reference.sgd(), []),
    ("SGD", {"momentum": 0.9}, reference.sgd(0.9), [("momentum",)]),
    ("SGD", {"momentum": 0.5, "nesterov": True}, reference.sgd(0.5, True), [("momentum",)]),
    ("Adam", {}, reference.adam(), [("momentum", "velocity")]),
    (
        "Adam",
        {"amsgrad": True, "beta_1": 0.8, "epsilon": 1e-3},
        reference.adam(0.8, 0.999, 1e-3, True),
        [("momentum", "velocity"), ("velocity_hat",)],
    ),
    ("AdamW", {"weight_decay": 0.1}, reference.adam(), [("momentum", "velocity")]),
    (
        "AdamW",
        {"weight_decay": 0.5, "amsgrad": True},
        reference.adam(amsgrad=True),
        [("momentum", "velocity"), ("velocity_hat",)],
    ),
    ("Adamax", {}, reference.adamax(), [("momentum", "norm")]),
    ("Adamax", {"beta_1": 0.5, "beta_2": 0.9}, reference.adamax(0.5, 0.9), [("momentum", "norm")]),
    ("Nadam", {}, reference.nadam(), [("momentum", "velocity")]),
    (
        "Nadam",
        {"beta_1": 0.8, "beta_2": 0.99},
        reference.nadam(0.8, 0.99),
        [("momentum", "velocity")],
    ),
    ("RMSprop", {}, reference.rmsprop(), [("velocity",)]),
    (
        "RMSprop",
        {"centered": True},
        reference.rmsprop(centered=True),
        [("velocity",), ("average_gradient",)],
    ),
    (
        "RMSprop",
        {"momentum": 0.5, "centered": True, "rho": 0.8},
        reference.rmsprop(0.8, 0.5, 1e-7, True),
        [("velocity",), ("momentum",), ("average_gradient",)],
    ),
    ("Adagrad", {}, reference.adagrad(), [("accumulator",)]),
    ("Adagrad", {"initial_accumulator_value": 0.5}, reference.adagrad(0.5), [("accumulator",)]),
    ("Adadelta", {}, reference.adadelta(), [("accumulated_grad", "accumulated_delta_var")]),
    (
        "Adadelta",
        {"rho": 0.5, "epsilon": 1e-3},
        reference.adadelta(0.5, 1e-3),
        [("accumulated_grad", "accumulated_delta_var")],
    ),
    ("Adafactor", {}, reference.adafactor(), [("row", "col", "velocity")]),
    (
        "Adafactor",
        {"relative_step": False, "clip_threshold": 0.5, "beta_2_decay": -0.5},
        reference.adafactor(-0.5, clip_threshold=0.5, relative_step=False),
        [("row", "col", "velocity")],
    ),
    ("Ftrl", {}, reference.ftrl(), [("accumulator", "linear")]),
    (
        "Ftrl",
        {
            "learning_rate_power": -0.3,
            "l1_regularization_strength": 0.01,
            "l2_regularization_strength": 0.1,
            "l2_shrinkage_regularization_strength": 0.05,
            "beta": 0.2,
        },
        reference.ftrl(-0.3, 0.1, 0.01, 0.1, 0.05, 0.2),
        [("accumulator", "linear")],
    ),
    ("Lion", {}, reference.lion(), [("momentum",)]),
    ("Lion", {"beta_1": 0.5, "beta_2": 0.9}, reference.lion(0.5, 0.9), [("momentum",)]),
    ("Lamb", {}, reference.lamb(), [("momentum", "velocity")]),
    ("ScheduleFreeAdamW", {}, reference.schedule_free_adamw(), [("momentum", "velocity")]),
    (
        "ScheduleFreeAdamW",
        {"beta_1": 0.8, "beta_2": 0.9, "epsilon": 1e-3, "warmup_steps": 3},
        reference.schedule_free_adamw(0.8, 0.9, 1e-3, 3),
        [("momentum", "velocity")],
    ),
]


def _ids():
    return [f"{name}-{args}" for name, args, _, _ in CASES]


def _expected_slots(groups, slots):
    """The reference slot arrays in checkpoint order."""
    ordered = []
    for group in groups:
        for per_variable in slots:
            ordered.extend(per_variable[name] for name in group)
    return ordered


@pytest.mark.parametrize("name, args, rule, groups", CASES, ids=_ids())
def test_rule_matches_reference(name, args, rule, groups, data):
    init, grads = data
    variables = make_variables(init)
    optimizer = getattr(optimizers, name)(learning_rate=0.05, **args)
    trajectory = run(optimizer, variables, grads)
    expected, slots, _ = reference.run(rule, init, grads, weight_decay=args.get("weight_decay"))
    assert_trajectories_close(trajectory, expected)

    state = optimizer.variables
    assert state[0] is optimizer.iterations and int(state[0].numpy()) == len(grads)
    assert state[0].dtype == stored_dtype("int64") and state[1].dtype == "float32"
    np.testing.assert_allclose(state[1].numpy(), 0.05)
    extra = [np.asarray(rule.shared["product"])] if name == "Nadam" else []
    want = _expected_slots(groups, slots) + extra
    assert len(state) == 2 + len(want)
    for got, value in zip(state[2:], want):
        np.testing.assert_allclose(
            got.numpy(),
            value,
            rtol=accelerator.floor(1e-5),
            atol=accelerator.floor(1e-6),
            err_msg=got.path,
        )
    assert all(not v.trainable for v in state)


@pytest.mark.parametrize("name, args, rule, groups", CASES[:1] + CASES[3:4], ids=["SGD", "Adam"])
def test_numpy_gradients_are_accepted(name, args, rule, groups, data):
    init, grads = data
    variables = make_variables(init)
    optimizer = getattr(optimizers, name)(learning_rate=0.05, **args)
    for step in grads:
        optimizer.apply(step, variables)
    expected, _, _ = reference.run(rule, init, grads)
    assert_trajectories_close([[v.numpy() for v in variables]], expected[-1:])


def test_slot_paths_follow_keras():
    variables = make_variables([np.ones((2, 2), "float32"), np.ones(2, "float32")])
    optimizer = optimizers.Adam(name="adam")
    optimizer.build(variables)
    assert [v.path for v in optimizer.variables] == [
        "adam/iteration",
        "adam/learning_rate",
        "adam/dense_kernel_momentum",
        "adam/dense_kernel_velocity",
        "adam/dense_bias_momentum",
        "adam/dense_bias_velocity",
    ]


def test_state_order_with_ema_and_accumulation():
    """Keras 3's order: iteration, learning_rate, EMA averages, accumulators, then the slots."""
    variables = make_variables([np.ones((2, 2), "float32"), np.ones(2, "float32")])
    optimizer = optimizers.Adam(use_ema=True, gradient_accumulation_steps=2, amsgrad=True, name="o")
    optimizer.build(variables)
    suffixes = [v.path.split("/")[1] for v in optimizer.variables]
    assert suffixes == [
        "iteration",
        "learning_rate",
        "dense_kernel_average",
        "dense_bias_average",
        "dense_kernel_gradient_accumulator",
        "dense_bias_gradient_accumulator",
        "dense_kernel_momentum",
        "dense_kernel_velocity",
        "dense_bias_momentum",
        "dense_bias_velocity",
        "dense_kernel_velocity_hat",
        "dense_bias_velocity_hat",
    ]


def test_adafactor_slot_shapes():
    variables = make_variables([np.ones((4, 3, 2), "float32"), np.ones(2, "float32")])
    optimizer = optimizers.Adafactor()
    optimizer.build(variables)
    assert [v.shape for v in optimizer.variables[2:]] == [(4, 3), (4, 2), (4, 3, 2), (), (), (2,)]


def test_adafactor_factors_rank_3():
    rng = np.random.default_rng(3)
    init = [rng.normal(size=(2, 3, 4)).astype("float32")]
    grads = [[rng.normal(size=(2, 3, 4)).astype("float32")] for _ in range(3)]
    variables = make_variables(init, names=("kernel",))
    trajectory = run(optimizers.Adafactor(learning_rate=0.05), variables, grads)
    expected, _, _ = reference.run(reference.adafactor(), init, grads)
    assert_trajectories_close(trajectory, expected)
