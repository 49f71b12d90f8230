"""Configs, `get` identifiers, serialization and saving/loading optimizer state."""

import numpy as np
import pytest

from tests.training.optimizers.conftest import make_variables, run
from tripod.backends import active
from tripod.training import optimizers
from tripod.training.optimizers import schedules

ops = active()

ALL = [
    "SGD",
    "Adam",
    "AdamW",
    "Adamax",
    "Nadam",
    "RMSprop",
    "Adagrad",
    "Adadelta",
    "Adafactor",
    "Ftrl",
    "Lion",
    "Lamb",
    "Muon",
    "ScheduleFreeAdamW",
]
COMMON = [
    "name",
    "learning_rate",
    "weight_decay",
    "clipnorm",
    "global_clipnorm",
    "clipvalue",
    "use_ema",
    "ema_momentum",
    "ema_overwrite_frequency",
    "loss_scale_factor",
    "gradient_accumulation_steps",
]
OWN = {
    "SGD": {"momentum": 0.0, "nesterov": False},
    "Adam": {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07, "amsgrad": False},
    "AdamW": {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07, "amsgrad": False},
    "Adamax": {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07},
    "Nadam": {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07},
    "RMSprop": {"rho": 0.9, "momentum": 0.0, "epsilon": 1e-07, "centered": False},
    "Adagrad": {"initial_accumulator_value": 0.1, "epsilon": 1e-07},
    "Adadelta": {"rho": 0.95, "epsilon": 1e-07},
    "Adafactor": {
        "beta_2_decay": -0.8,
        "epsilon_1": 1e-30,
        "epsilon_2": 0.001,
        "clip_threshold": 1.0,
        "relative_step": True,
    },
    "Ftrl": {
        "learning_rate_power": -0.5,
        "initial_accumulator_value": 0.1,
        "l1_regularization_strength": 0.0,
        "l2_regularization_strength": 0.0,
        "l2_shrinkage_regularization_strength": 0.0,
        "beta": 0.0,
    },
    "Lion": {"beta_1": 0.9, "beta_2": 0.99},
    "Lamb": {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07},
    "Muon": {
        "adam_beta_1": 0.9,
        "adam_beta_2": 0.999,
        "epsilon": 1e-07,
        "exclude_layers": [],
        "muon_a": 3.4445,
        "muon_b": -4.775,
        "muon_c": 2.0315,
        "adam_lr_ratio": 1,
        "momentum": 0.95,
        "ns_steps": 5,
        "nesterov": True,
        "exclude_embeddings": True,
        "adam_weight_decay": 0.004,
        "rms_rate": 0.2,
    },
    "ScheduleFreeAdamW": {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-08, "warmup_steps": 0},
}
DEFAULT_RATE = {"SGD": 0.01, "ScheduleFreeAdamW": 0.0025}
DEFAULT_DECAY = {"AdamW": 0.004, "Muon": 0.004}


@pytest.mark.parametrize("name", ALL)
def test_default_config_is_keras(name):
    config = getattr(optimizers, name)().get_config()
    assert list(config) == COMMON + list(OWN[name])
    assert {k: config[k] for k in OWN[name]} == OWN[name]
    assert config["learning_rate"] == pytest.approx(DEFAULT_RATE.get(name, 0.001))
    assert config["weight_decay"] == DEFAULT_DECAY.get(name)


@pytest.mark.parametrize("name", ALL)
def test_config_round_trip(name):
    optimizer = getattr(optimizers, name)(
        learning_rate=0.03, clipnorm=2.0, use_ema=True, name="mine"
    )
    config = optimizers.serialize(optimizer)
    assert config["module"] == "keras.optimizers" and config["class_name"] == name
    rebuilt = optimizers.deserialize(config)
    assert type(rebuilt) is type(optimizer) and rebuilt.get_config() == optimizer.get_config()


def test_schedule_serializes_inside_the_config():
    optimizer = optimizers.Adam(
        learning_rate=schedules.CosineDecay(0.1, 100, warmup_target=0.2, warmup_steps=5)
    )
    config = optimizers.serialize(optimizer)
    assert config["config"]["learning_rate"]["class_name"] == "CosineDecay"
    assert config["config"]["learning_rate"]["module"] == "keras.optimizers.schedules"
    rebuilt = optimizers.deserialize(config)
    assert isinstance(rebuilt._learning_rate, schedules.CosineDecay)
    assert rebuilt.get_config() == optimizer.get_config()


@pytest.mark.parametrize(
    "identifier, cls",
    [
        ("adam", "Adam"),
        ("Adam", "Adam"),
        ("sgd", "SGD"),
        ("rmsprop", "RMSprop"),
        ("adamw", "AdamW"),
        ("nadam", "Nadam"),
        ("adagrad", "Adagrad"),
        ("adadelta", "Adadelta"),
        ("adamax", "Adamax"),
        ("ftrl", "Ftrl"),
        ("lion", "Lion"),
        ("lamb", "Lamb"),
        ("adafactor", "Adafactor"),
        ("muon", "Muon"),
        ("schedulefreeadamw", "ScheduleFreeAdamW"),
    ],
)
def test_get_by_name(identifier, cls):
    assert type(optimizers.get(identifier)) is getattr(optimizers, cls)


def test_get_other_identifiers():
    optimizer = optimizers.SGD()
    assert optimizers.get(optimizer) is optimizer
    assert optimizers.get(None) is None
    from_config = optimizers.get({"class_name": "adam", "config": {"learning_rate": 0.5}})
    assert type(from_config) is optimizers.Adam and from_config.get_config()["learning_rate"] == 0.5
    assert type(optimizers.get(optimizers.serialize(optimizer))) is optimizers.SGD
    for bad in ("nonsense", 3, optimizers.Adam):
        with pytest.raises(ValueError, match="Could not interpret optimizer identifier"):
            optimizers.get(bad)


def test_save_and_load_own_variables(data):
    init, grads = data
    variables = make_variables(init)
    optimizer = optimizers.Adam(learning_rate=0.05, amsgrad=True)
    run(optimizer, variables, grads)
    store = {}
    optimizer.save_own_variables(store)
    assert sorted(store, key=int) == [str(i) for i in range(len(optimizer.variables))]

    fresh = optimizers.Adam(learning_rate=0.05, amsgrad=True)
    fresh.build(make_variables(init))
    fresh.load_own_variables(store)
    for saved, loaded in zip(optimizer.variables, fresh.variables):
        np.testing.assert_array_equal(saved.numpy(), loaded.numpy())
    assert loaded.dtype == saved.dtype


def test_load_errors(data):
    init, _ = data
    optimizer = optimizers.Adam()
    optimizer.build(make_variables(init))
    store = {}
    optimizer.save_own_variables(store)
    unbuilt = optimizers.Adam()
    with pytest.raises(ValueError, match="has 2 variables but the saved state holds 6.*not built"):
        unbuilt.load_own_variables(store)
    other = optimizers.Adam()
    other.build(make_variables([np.ones((3, 3), "float32"), init[1]]))
    with pytest.raises(ValueError, match=r"saved variable 2 has shape \(3, 2\).*\(3, 3\)"):
        other.load_own_variables(store)
    assert int(other.iterations.numpy()) == 0  # nothing was loaded
    with pytest.raises(ValueError, match="no entry '5'"):
        optimizer.load_own_variables({**{str(i): store[str(i)] for i in range(5)}, "x": store["5"]})


def test_loss_scale_optimizer_config_and_state():
    optimizer = optimizers.LossScaleOptimizer(
        optimizers.SGD(momentum=0.5), initial_scale=8.0, dynamic_growth_steps=3
    )
    config = optimizers.serialize(optimizer)
    assert config["config"]["inner_optimizer"]["class_name"] == "SGD"
    assert {k: config["config"][k] for k in ("initial_scale", "dynamic_growth_steps")} == {
        "initial_scale": 8.0,
        "dynamic_growth_steps": 3,
    }
    rebuilt = optimizers.deserialize(config)
    assert rebuilt.get_config() == optimizer.get_config()
    optimizer.build(make_variables([np.ones(2, "float32")], names=("w",)))
    names = [v.path.split("/")[1] for v in optimizer.variables]
    assert names == [
        "iteration",
        "learning_rate",
        "step_counter",
        "dynamic_scale",
        "iteration",
        "learning_rate",
        "dense_w_momentum",
    ]
