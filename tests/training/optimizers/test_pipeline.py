"""The shared update pipeline: unscaling, accumulation, clipping, weight decay, constraints, EMA,
the learning rate, and argument errors."""

import numpy as np
import pytest

from tests.training.optimizers import reference
from tests.training.optimizers.conftest import (
    assert_trajectories_close,
    make_data,
    make_variables,
    run,
)
from tripod.backends import active
from tripod.training import optimizers
from tripod.training.optimizers import schedules

ops = active()

PIPELINE_CASES = [
    ("SGD", {"clipnorm": 0.5}),
    ("Adam", {"clipvalue": 0.3}),
    ("Adam", {"global_clipnorm": 0.7}),
    ("SGD", {"momentum": 0.9, "weight_decay": 0.1}),
    ("Adam", {"weight_decay": 0.2, "clipnorm": 1.0}),
    ("SGD", {"loss_scale_factor": 4.0}),
    ("Adam", {"gradient_accumulation_steps": 2}),
    ("Adam", {"gradient_accumulation_steps": 3, "global_clipnorm": 0.5, "weight_decay": 0.1}),
    ("SGD", {"momentum": 0.5, "gradient_accumulation_steps": 2, "loss_scale_factor": 2.0}),
    ("SGD", {"use_ema": True, "ema_momentum": 0.5}),
    ("Adam", {"use_ema": True, "ema_momentum": 0.7, "ema_overwrite_frequency": 3}),
    (
        "SGD",
        {
            "use_ema": True,
            "ema_momentum": 0.5,
            "ema_overwrite_frequency": 2,
            "gradient_accumulation_steps": 2,
        },
    ),
    ("Nadam", {"use_ema": True, "gradient_accumulation_steps": 2}),
]

RULES = {"SGD": reference.sgd, "Adam": reference.adam, "Nadam": reference.nadam}


@pytest.mark.parametrize("name, args", PIPELINE_CASES, ids=[f"{n}-{a}" for n, a in PIPELINE_CASES])
def test_pipeline_matches_reference(name, args):
    init, grads = make_data(steps=7)
    variables = make_variables(init)
    optimizer = getattr(optimizers, name)(learning_rate=0.05, **args)
    trajectory = run(optimizer, variables, grads)
    pipeline = {k: v for k, v in args.items() if k != "momentum"}
    rule = RULES[name](**({"momentum": args["momentum"]} if "momentum" in args else {}))
    expected, _, averages = reference.run(rule, init, grads, **pipeline)
    assert_trajectories_close(trajectory, expected)
    if args.get("use_ema"):
        optimizer.finalize_variable_values(variables)
        assert_trajectories_close([[v.numpy() for v in variables]], [averages])


def test_accumulation_counts_updates():
    init, grads = make_data(steps=5)
    variables = make_variables(init)
    optimizer = optimizers.SGD(learning_rate=0.1, gradient_accumulation_steps=2)
    seen = []
    for step in grads:
        optimizer.apply(step, variables)
        seen.append(int(np.asarray(optimizer.iterations)))
    assert seen == [0, 1, 1, 2, 2]
    assert int(optimizer.variables[0].numpy()) == 5  # the stored counter counts calls
    np.testing.assert_allclose(optimizer.variables[2].numpy(), grads[4][0])  # the running sum


def test_weight_decay_exclusions():
    init, grads = make_data()
    variables = make_variables(init)
    optimizer = optimizers.SGD(learning_rate=0.05, weight_decay=0.3)
    optimizer.exclude_from_weight_decay(var_names=["bi.s"])
    trajectory = run(optimizer, variables, grads)
    expected, _, _ = reference.run(
        reference.sgd(), init, grads, weight_decay=0.3, decay_mask=[True, False]
    )
    assert_trajectories_close(trajectory, expected)

    variables = make_variables(init)
    optimizer = optimizers.AdamW(learning_rate=0.05, weight_decay=0.3)
    optimizer.exclude_from_weight_decay(var_list=[variables[0]])
    trajectory = run(optimizer, variables, grads)
    expected, _, _ = reference.run(
        reference.adam(), init, grads, weight_decay=0.3, decay_mask=[False, True]
    )
    assert_trajectories_close(trajectory, expected)


def test_none_gradients_are_skipped(data):
    init, grads = data
    variables = make_variables(init)
    optimizer = optimizers.Adam(learning_rate=0.05)
    for step in grads:
        with pytest.warns(
            UserWarning, match=r"Gradients do not exist for variables \['dense/bias'\]"
        ):
            optimizer.apply([step[0], None], variables)
    np.testing.assert_array_equal(variables[1].numpy(), init[1])
    expected, _, _ = reference.run(reference.adam(), init[:1], [s[:1] for s in grads])
    assert_trajectories_close([[variables[0].numpy()]], expected[-1:])


@pytest.mark.parametrize("method", ["apply", "apply_gradients"])
def test_all_none_gradients_are_an_error(method, data):
    init, _ = data
    variables = make_variables(init)
    optimizer = optimizers.SGD(learning_rate=0.1, name="sgd")
    call = {
        "apply": lambda: optimizer.apply([None, None], variables),
        "apply_gradients": lambda: optimizer.apply_gradients([(None, v) for v in variables]),
    }[method]
    with pytest.raises(ValueError, match="No gradients provided for any variable: optimizer 'sgd'"):
        call()
    for variable, value in zip(variables, init):
        np.testing.assert_array_equal(variable.numpy(), value)
    assert int(optimizer.iterations.numpy()) == 0


def test_all_none_gradients_through_loss_scale_optimizer(data):
    init, _ = data
    variables = make_variables(init)
    optimizer = optimizers.LossScaleOptimizer(optimizers.SGD(learning_rate=0.1))
    with pytest.raises(ValueError, match="No gradients provided for any variable"):
        optimizer.apply([None, None], variables)


def test_constraints_apply_after_the_update():
    variable = ops.Variable(np.zeros(3, "float32"), name="w")
    variable.constraint = lambda w: ops.clip(w, -0.1, 0.1)
    optimizer = optimizers.SGD(learning_rate=1.0)
    optimizer.apply([np.array([1.0, -1.0, 0.05], "float32")], [variable])
    np.testing.assert_allclose(variable.numpy(), [-0.1, 0.1, -0.05])


def test_overwrite_with_gradient():
    plain, overwritten = ops.Variable(np.ones(2, "float32")), ops.Variable(np.ones(2, "float32"))
    overwritten.overwrite_with_gradient = True
    optimizer = optimizers.SGD(learning_rate=0.5)
    optimizer.apply([np.full(2, 2.0, "float32"), np.full(2, 7.0, "float32")], [plain, overwritten])
    np.testing.assert_allclose(plain.numpy(), [0.0, 0.0])
    np.testing.assert_allclose(overwritten.numpy(), [7.0, 7.0])


def test_apply_gradients_and_default_variables(data):
    init, grads = data
    variables = make_variables(init)
    optimizer = optimizers.SGD(learning_rate=0.05)
    optimizer.apply_gradients(zip(grads[0], variables))
    optimizer.apply(grads[1])  # built: the variables default to those it was built with
    expected, _, _ = reference.run(reference.sgd(), init, grads[:2])
    assert_trajectories_close([[v.numpy() for v in variables]], expected[-1:])
    assert int(optimizer.iterations.numpy()) == 2


def test_learning_rate_property_and_setter():
    optimizer = optimizers.SGD(learning_rate=0.1)
    assert optimizer.learning_rate is optimizer.variables[1]
    optimizer.learning_rate = 0.25
    np.testing.assert_allclose(optimizer.learning_rate.numpy(), 0.25)
    assert optimizer.get_config()["learning_rate"] == pytest.approx(0.25)
    variable = ops.Variable(np.zeros(1, "float32"))
    optimizer.apply([np.ones(1, "float32")], [variable])
    np.testing.assert_allclose(variable.numpy(), [-0.25])
    optimizer.learning_rate = schedules.ExponentialDecay(1.0, 1, 0.5)
    assert len(optimizer.variables) == 1  # the rate variable is gone, as in Keras
    np.testing.assert_allclose(np.asarray(optimizer.learning_rate), 0.5)  # one update done


def test_schedule_and_callable_learning_rates(data):
    init, grads = data
    schedule = schedules.PiecewiseConstantDecay([0, 2], [0.1, 0.05, 0.01])
    variables = make_variables(init)
    optimizer = optimizers.Adam(learning_rate=schedule)
    assert [v.path.split("/")[1] for v in optimizer.variables] == ["iteration"]
    trajectory = run(optimizer, variables, grads)
    rates = [0.1, 0.05, 0.05, 0.01]  # by the number of updates done
    expected, _, _ = reference.run(reference.adam(), init, grads, learning_rate=rates.__getitem__)
    assert_trajectories_close(trajectory, expected)
    with pytest.raises(TypeError, match="LearningRateSchedule"):
        optimizer.learning_rate = 0.1

    variables = make_variables(init)
    optimizer = optimizers.SGD(learning_rate=lambda: 0.05)
    assert optimizer.learning_rate == 0.05
    trajectory = run(optimizer, variables, grads)
    expected, _, _ = reference.run(reference.sgd(), init, grads)
    assert_trajectories_close(trajectory, expected)


def test_schedule_counts_updates_under_accumulation():
    schedule = schedules.PiecewiseConstantDecay([0], [1.0, 0.1])
    variable = ops.Variable(np.zeros(1, "float32"))
    optimizer = optimizers.SGD(learning_rate=schedule, gradient_accumulation_steps=2)
    for _ in range(4):
        optimizer.apply([np.ones(1, "float32")], [variable])
    np.testing.assert_allclose(variable.numpy(), [-1.1], rtol=1e-6)


def test_custom_optimizer_with_update_step():
    class HalfStep(optimizers.Optimizer):
        def update_step(self, gradient, variable, learning_rate):
            variable.assign(ops.subtract(variable, ops.multiply(gradient, learning_rate * 0.5)))

    variable = ops.Variable(np.ones(2, "float32"))
    HalfStep(learning_rate=1.0).apply([np.ones(2, "float32")], [variable])
    np.testing.assert_allclose(variable.numpy(), [0.5, 0.5])
    with pytest.raises(NotImplementedError, match="update_step"):
        optimizers.Optimizer(learning_rate=0.1).apply([np.ones(2, "float32")], [variable])


BAD_ARGUMENTS = [
    (optimizers.SGD, {"clipnorm": 1.0, "clipvalue": 1.0}, "Only one of"),
    (optimizers.Adam, {"clipnorm": -1.0}, "clipnorm"),
    (optimizers.Adam, {"gradient_accumulation_steps": 1}, "gradient_accumulation_steps"),
    (optimizers.Adam, {"gradient_accumulation_steps": 2.5}, "gradient_accumulation_steps"),
    (optimizers.Adam, {"use_ema": True, "ema_momentum": 1.5}, "ema_momentum"),
    (optimizers.Adam, {"use_ema": True, "ema_overwrite_frequency": 0}, "ema_overwrite_frequency"),
    (optimizers.Adam, {"weight_decay": "a lot"}, "weight_decay"),
    (optimizers.Adam, {"lr": 0.1}, "not recognized"),
    (optimizers.Adam, {"learning_rate": "fast"}, "learning_rate"),
    (optimizers.AdamW, {"weight_decay": None}, "weight_decay"),
    (optimizers.SGD, {"momentum": 1.5}, "momentum"),
    (optimizers.Ftrl, {"learning_rate_power": 0.5}, "learning_rate_power"),
    (optimizers.Ftrl, {"l1_regularization_strength": -1.0}, "l1_regularization_strength"),
    (optimizers.Lion, {"beta_1": 0.0}, "beta_1"),
]


@pytest.mark.parametrize(
    "cls, args, message", BAD_ARGUMENTS, ids=[f"{c.__name__}-{a}" for c, a, _ in BAD_ARGUMENTS]
)
def test_bad_arguments(cls, args, message):
    with pytest.raises(ValueError, match=message):
        cls(**args)


def test_bad_calls(data):
    init, grads = data
    variables = make_variables(init)
    optimizer = optimizers.Adam()
    with pytest.raises(ValueError, match="not built"):
        optimizer.apply(grads[0])
    with pytest.raises(ValueError, match="2 gradients for 1 variables"):
        optimizer.apply(grads[0], variables[:1])
    with pytest.raises(ValueError, match="was not built with"):
        optimizer.apply(grads[0][:1], [ops.Variable(np.ones((3, 2), "float32"))])
    with pytest.raises(ValueError, match="same variable twice"):
        optimizers.SGD().build([variables[0], variables[0]])
