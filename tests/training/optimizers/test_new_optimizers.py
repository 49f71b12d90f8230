"""Muon, ScheduleFreeAdamW, MultiOptimizer and OptimizerMap: rules against NumPy, slot layout,
configs, argument errors, and state saved with a model (ScheduleFreeAdamW's rule is also in
test_rules)."""

import json

import numpy as np
import pytest

import tripod as keras
from tests.training.optimizers import reference
from tests.training.optimizers.conftest import (
    assert_trajectories_close,
    make_data,
    make_variables,
    run,
)
from tripod import layers, saving
from tripod.backends import active, config
from tripod.training import optimizers

ops = active()

needs_training = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)

# a tall matrix, a vector and a wide matrix: Muon, Adam, Muon (transposed Gram)
SHAPES = [(3, 2), (2,), (2, 4)]
NAMES = ("kernel", "bias", "wide")


def _data(steps=4, seed=1):
    rng = np.random.default_rng(seed)
    init = [rng.normal(size=s).astype("float32") for s in SHAPES]
    grads = [[rng.normal(size=s).astype("float32") for s in SHAPES] for _ in range(steps)]
    return init, grads


MUON_CASES = [
    ({}, {}),
    (
        {
            "momentum": 0.9,
            "nesterov": False,
            "ns_steps": 3,
            "rms_rate": None,
            "adam_lr_ratio": 0.5,
            "weight_decay": 0.1,
            "adam_weight_decay": 0.2,
            "adam_beta_1": 0.8,
            "epsilon": 1e-3,
        },
        {
            "momentum": 0.9,
            "nesterov": False,
            "ns_steps": 3,
            "rms_rate": None,
            "adam_lr_ratio": 0.5,
            "weight_decay": 0.1,
            "adam_weight_decay": 0.2,
            "adam_beta_1": 0.8,
            "epsilon": 1e-3,
        },
    ),
    (
        {"weight_decay": None, "adam_weight_decay": None, "rms_rate": 0.5},
        {"weight_decay": None, "adam_weight_decay": None, "rms_rate": 0.5},
    ),
]


@pytest.mark.parametrize("args, rule_args", MUON_CASES, ids=["defaults", "options", "no-decay"])
def test_muon_matches_reference(args, rule_args):
    init, grads = _data()
    variables = make_variables(init, NAMES)
    optimizer = optimizers.Muon(learning_rate=0.05, **args)
    trajectory = run(optimizer, variables, grads)
    expected, slots, _ = reference.run(reference.muon(**rule_args), init, grads)
    assert_trajectories_close(trajectory, expected)
    # Keras's order: a momentum per variable, followed by a velocity for Adam variables.
    state = optimizer.variables
    assert [v.path.split("/")[1] for v in state] == [
        "iteration",
        "learning_rate",
        "dense_kernel_momentum",
        "dense_bias_momentum",
        "dense_bias_velocity",
        "dense_wide_momentum",
    ]
    want = [slots[0]["momentum"], slots[1]["momentum"], slots[1]["velocity"], slots[2]["momentum"]]
    for got, value in zip(state[2:], want):
        np.testing.assert_allclose(got.numpy(), value, rtol=1e-5, atol=1e-6, err_msg=got.path)


def test_muon_orthogonalizes():
    """Enough Newton-Schulz steps bring the singular values of the step near 1 (the quintic
    iteration's fixed band is about 0.7-1.2)."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4, 6)).astype("float32")
    result = ops.convert_to_numpy(
        optimizers.Muon(ns_steps=10)._orthogonalize(ops.convert_to_tensor(x))
    )
    singular = np.linalg.svd(result, compute_uv=False)
    assert np.all((singular > 0.6) & (singular < 1.25)), singular
    np.testing.assert_allclose(
        result, reference.newton_schulz(x.astype("float64"), 10), rtol=1e-4, atol=1e-5
    )


@pytest.mark.parametrize(
    "args, path, adam",
    [
        ({}, "model/embedding/embeddings", True),
        ({"exclude_embeddings": False}, "model/embedding/embeddings", False),
        ({"exclude_layers": ["output"]}, "model/output/kernel", True),
        ({"exclude_layers": ["output"]}, "model/hidden/kernel", False),
    ],
)
def test_muon_exclusions_take_adam_steps(args, path, adam):
    init, grads = _data()
    variable = ops.Variable(init[0].copy(), name=path.rsplit("/", 1)[1], path=path)
    optimizer = optimizers.Muon(learning_rate=0.05, **args)
    trajectory = run(optimizer, [variable], [step[:1] for step in grads])
    expected, _, _ = reference.run(
        reference.muon(adam_for=lambda w: adam), init[:1], [step[:1] for step in grads]
    )
    assert_trajectories_close(trajectory, expected)
    assert len(optimizer.variables) == (4 if adam else 3)


def test_muon_bad_arguments():
    with pytest.raises(ValueError, match="ns_steps"):
        optimizers.Muon(ns_steps=2.5)
    with pytest.raises(TypeError, match="exclude_layers.*list"):
        optimizers.Muon(exclude_layers="output")


def test_schedule_free_adamw_starts_z_at_the_variable():
    init, _ = make_data()
    variables = make_variables(init)
    optimizer = optimizers.ScheduleFreeAdamW()
    optimizer.build(variables)
    momentums = optimizer.variables[2::2]
    for momentum, value in zip(momentums, init):
        np.testing.assert_array_equal(momentum.numpy(), value)
    with pytest.raises(ValueError, match="beta_1"):
        optimizers.ScheduleFreeAdamW(beta_1=0.0)
    with pytest.raises(ValueError, match="warmup_steps"):
        optimizers.ScheduleFreeAdamW(warmup_steps=-1)


# -- MultiOptimizer / OptimizerMap -----------------------------------------------------------


def _multi(loss_scale_factor=None):
    sgd, adam = optimizers.SGD(0.1, name="sgd"), optimizers.Adam(0.05, name="adam")
    mapping = optimizers.OptimizerMap(sgd, {"dense/bi.*": adam})
    return (
        optimizers.MultiOptimizer(mapping, loss_scale_factor=loss_scale_factor, name="multi"),
        sgd,
        adam,
    )


def test_multi_optimizer_dispatches_by_path(data):
    init, grads = data
    variables = make_variables(init)
    optimizer, sgd, adam = _multi()
    trajectory = run(optimizer, variables, grads)
    kernel, _, _ = reference.run(
        reference.sgd(), init[:1], [s[:1] for s in grads], learning_rate=0.1
    )
    bias, _, _ = reference.run(
        reference.adam(), init[1:], [s[1:] for s in grads], learning_rate=0.05
    )
    assert_trajectories_close(trajectory, [k + b for k, b in zip(kernel, bias)])
    assert optimizer.optimizers == [adam, sgd]  # the map's optimizers, then the default
    assert [v.path for v in optimizer.variables] == [
        "multi/iteration",
        "multi/learning_rate",
        "adam/iteration",
        "adam/learning_rate",
        "adam/dense_bias_momentum",
        "adam/dense_bias_velocity",
        "sgd/iteration",
        "sgd/learning_rate",
    ]
    assert [int(o.iterations.numpy()) for o in (optimizer, adam, sgd)] == [len(grads)] * 3


def test_multi_optimizer_with_a_function(data):
    init, grads = data
    variables = make_variables(init)
    sgd, adam = optimizers.SGD(0.1), optimizers.Adam(0.05)
    optimizer = optimizers.MultiOptimizer(lambda v: adam if "bias" in v.path else sgd)
    trajectory = run(optimizer, variables, grads)
    kernel, _, _ = reference.run(
        reference.sgd(), init[:1], [s[:1] for s in grads], learning_rate=0.1
    )
    bias, _, _ = reference.run(
        reference.adam(), init[1:], [s[1:] for s in grads], learning_rate=0.05
    )
    assert_trajectories_close(trajectory, [k + b for k, b in zip(kernel, bias)])
    assert optimizer.optimizers == [sgd, adam]  # in the order the variables met them


def test_multi_optimizer_loss_scale_factor(data):
    init, grads = data
    variables = make_variables(init)
    optimizer, sgd, adam = _multi(loss_scale_factor=4.0)
    assert sgd.loss_scale_factor == adam.loss_scale_factor == 4.0
    np.testing.assert_allclose(ops.convert_to_numpy(optimizer.scale_loss(2.0)), 8.0)
    run(optimizer, variables, [[g * 4.0 for g in step] for step in grads])
    kernel, _, _ = reference.run(
        reference.sgd(), init[:1], [s[:1] for s in grads], learning_rate=0.1
    )
    assert_trajectories_close([[variables[0].numpy()]], [kernel[-1]])


def test_multi_optimizer_has_no_learning_rate():
    optimizer, _, _ = _multi()
    with pytest.raises(AttributeError, match="no learning rate of its own"):
        optimizer.learning_rate  # noqa: B018
    with pytest.raises(AttributeError, match="no learning rate of its own"):
        optimizer.learning_rate = 0.1


def test_multi_optimizer_rejects_wrappers(data):
    init, _ = data
    with pytest.raises(TypeError, match="optimizer_map"):
        optimizers.MultiOptimizer("sgd")
    wrapped = optimizers.MultiOptimizer(lambda v: optimizers.LossScaleOptimizer(optimizers.SGD()))
    with pytest.raises(ValueError, match="LossScaleOptimizer cannot serve"):
        wrapped.build(make_variables(init))
    not_one = optimizers.MultiOptimizer(lambda v: "sgd")
    with pytest.raises(ValueError, match="expected an Optimizer instance"):
        not_one.build(make_variables(init))


def test_multi_optimizer_all_none_gradients(data):
    init, _ = data
    optimizer, _, _ = _multi()
    with pytest.raises(ValueError, match="No gradients provided for any variable"):
        optimizer.apply([None, None], make_variables(init))


def test_optimizer_map_lookup():
    default, exact, encoder = optimizers.RMSprop(), optimizers.Adam(), optimizers.SGD()
    mapping = optimizers.OptimizerMap(default)
    mapping["encoder/layer_0/dense"] = exact
    mapping["encoder/.*"] = encoder
    assert mapping["encoder/layer_0/dense"] is exact  # an exact key before the patterns
    assert mapping["encoder/layer_1/dense"] is encoder
    assert mapping["encoder"] is default  # patterns match the whole path
    assert mapping(make_variables([np.ones(2, "float32")])[0]) is default  # by the path
    assert (
        mapping.default_optimizer is default
        and len(mapping) == 2
        and list(mapping)
        == [
            "encoder/layer_0/dense",
            "encoder/.*",
        ]
    )
    mapping["encoder/layer_.*"] = optimizers.Adam()
    with pytest.raises(ValueError, match="matches several patterns"):
        mapping["encoder/layer_1/dense"]
    del mapping["encoder/layer_.*"]
    assert mapping["encoder/layer_1/dense"] is encoder


def test_optimizer_map_errors():
    mapping = optimizers.OptimizerMap(optimizers.SGD(), {"a": optimizers.Adam()})
    with pytest.raises(ValueError, match="'a' already maps"):
        mapping["a"] = optimizers.SGD()
    with pytest.raises(ValueError, match="keys must be strings"):
        mapping[3] = optimizers.SGD()
    with pytest.raises(ValueError, match="expected an Optimizer instance"):
        mapping["b"] = "adam"
    with pytest.raises(ValueError, match="LossScaleOptimizer cannot serve"):
        mapping["b"] = optimizers.LossScaleOptimizer(optimizers.SGD())
    with pytest.raises(TypeError, match="default_optimizer"):
        optimizers.OptimizerMap("sgd")
    with pytest.raises(TypeError, match="optimizer_map"):
        optimizers.OptimizerMap(optimizers.SGD(), [("a", optimizers.SGD())])


def test_multi_optimizer_config_round_trip():
    optimizer, _, _ = _multi(loss_scale_factor=2.0)
    config = optimizers.serialize(optimizer)
    assert config["class_name"] == "MultiOptimizer" and config["module"] == "keras.optimizers"
    assert set(config["config"]) == {"optimizer_map", "loss_scale_factor", "name"}
    assert config["config"]["optimizer_map"]["class_name"] == "OptimizerMap"
    rebuilt = optimizers.deserialize(config)
    assert optimizers.serialize(rebuilt) == config
    assert [type(o) for o in rebuilt.optimizers] == [optimizers.Adam, optimizers.SGD]


# -- state saved with a model ----------------------------------------------------------------

MODEL_OPTIMIZERS = {
    "Muon": lambda: optimizers.Muon(0.02, exclude_layers=["out"]),
    "ScheduleFreeAdamW": lambda: optimizers.ScheduleFreeAdamW(0.02, warmup_steps=2),
    "MultiOptimizer": lambda: optimizers.MultiOptimizer(
        optimizers.OptimizerMap(
            optimizers.SGD(0.05, momentum=0.9), {".*/out/.*": optimizers.Adam(0.01)}
        )
    ),
}


@needs_training
def test_compile_and_fit_with_a_lambda_selector():
    """A lambda selector trains, and the compile config holds its code, as Keras saves a lambda
    (loading it back needs safe_mode=False)."""
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(16, 3)).astype("float32"), rng.normal(size=(16, 2)).astype("float32")
    sgd, adam = optimizers.SGD(0.05), optimizers.Adam(0.01)
    model = keras.Sequential([keras.Input((3,)), layers.Dense(2, name="out")])
    model.compile(optimizers.MultiOptimizer(lambda v: adam if "bias" in v.path else sgd), "mse")
    history = model.fit(x, y, batch_size=8, epochs=3, verbose=0).history["loss"]
    assert history[-1] < history[0]
    assert int(sgd.iterations.numpy()) == int(adam.iterations.numpy()) == 6
    assert "__lambda__" in json.dumps(model.get_compile_config())


@needs_training
@pytest.mark.parametrize("name", sorted(MODEL_OPTIMIZERS))
def test_state_saves_and_loads_with_the_model(tmp_path, name):
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(16, 3)).astype("float32"), rng.normal(size=(16, 2)).astype("float32")
    keras.utils.set_random_seed(0)
    model = keras.Sequential(
        [keras.Input((3,)), layers.Dense(4, name="hidden"), layers.Dense(2, name="out")]
    )
    model.compile(MODEL_OPTIMIZERS[name](), "mse")
    model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    model.save(tmp_path / "m.keras")
    loaded = saving.load_model(tmp_path / "m.keras")
    assert type(loaded.optimizer) is type(model.optimizer)
    assert [v.path for v in loaded.optimizer.variables] == [
        v.path for v in model.optimizer.variables
    ]
    for a, b in zip(loaded.optimizer.variables, model.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=a.path)
    for m in (model, loaded):  # training goes on from the same state
        m.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    for a, b in zip(loaded.weights, model.weights):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6, err_msg=a.path)
