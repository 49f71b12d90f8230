"""Learning-rate schedules against hand-computed values, on Python ints and integer tensors."""

import math

import numpy as np
import pytest

from tripod.backends import active
from tripod.training.optimizers import schedules

ops = active()


def _values(schedule, steps):
    """The schedule at each step, alternating Python ints and int64 tensors."""
    return [
        float(np.asarray(schedule(ops.convert_to_tensor(s, "int64") if i % 2 else s)))
        for i, s in enumerate(steps)
    ]


def _cos(fraction):
    return 0.5 * (1 + math.cos(math.pi * fraction))


CASES = [
    (
        schedules.ExponentialDecay(0.1, 4, 0.5),
        [0, 2, 4, 6],
        [0.1, 0.1 * 0.5**0.5, 0.05, 0.1 * 0.5**1.5],
    ),
    (
        schedules.ExponentialDecay(0.1, 4, 0.5, staircase=True),
        [0, 3, 4, 9],
        [0.1, 0.1, 0.05, 0.025],
    ),
    (schedules.InverseTimeDecay(1.0, 2, 0.5), [0, 1, 2, 6], [1.0, 1 / 1.25, 1 / 1.5, 1 / 2.5]),
    (
        schedules.InverseTimeDecay(1.0, 2, 0.5, staircase=True),
        [0, 1, 2, 5],
        [1.0, 1.0, 1 / 1.5, 1 / 2.0],
    ),
    (
        schedules.PiecewiseConstantDecay([2, 5], [1.0, 0.5, 0.1]),
        [0, 2, 3, 5, 6, 100],
        [1.0, 1.0, 0.5, 0.5, 0.1, 0.1],
    ),
    (schedules.PolynomialDecay(0.1, 4, 0.01), [0, 1, 4, 10], [0.1, 0.0775, 0.01, 0.01]),
    (schedules.PolynomialDecay(0.1, 4, 0.0, power=2.0), [0, 2, 3], [0.1, 0.025, 0.00625]),
    (
        schedules.PolynomialDecay(0.1, 4, 0.0, cycle=True),
        [0, 2, 4, 6, 8],
        [0.1, 0.05, 0.0, 0.025, 0.0],
    ),
    (schedules.CosineDecay(0.1, 6), [0, 3, 6, 9], [0.1, 0.05, 0.0, 0.0]),
    (
        schedules.CosineDecay(0.1, 6, alpha=0.2),
        [0, 2, 6],
        [0.1, 0.1 * (0.8 * _cos(1 / 3) + 0.2), 0.02],
    ),
    (
        schedules.CosineDecay(0.0, 4, warmup_target=0.2, warmup_steps=2),
        [0, 1, 2, 4, 6, 9],
        [0.0, 0.1, 0.2, 0.1, 0.0, 0.0],
    ),
    (schedules.CosineDecay(0.05, 4, warmup_target=0.2), [0, 2], [0.2, 0.1]),
    (schedules.CosineDecayRestarts(0.1, 4), [0, 2, 4, 8, 12], [0.1, 0.05, 0.1, 0.05, 0.1]),
    (
        schedules.CosineDecayRestarts(0.1, 2, t_mul=1.0, m_mul=0.5, alpha=0.1),
        [0, 1, 2, 4],
        [0.1, 0.055, 0.055, 0.0325],
    ),
]


@pytest.mark.parametrize(
    "schedule, steps, expected",
    CASES,
    ids=[f"{type(c[0]).__name__}-{i}" for i, c in enumerate(CASES)],
)
def test_values(schedule, steps, expected):
    np.testing.assert_allclose(_values(schedule, steps), expected, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize(
    "schedule",
    [c[0] for c in CASES],
    ids=[f"{type(c[0]).__name__}-{i}" for i, c in enumerate(CASES)],
)
def test_config_round_trip(schedule):
    config = schedules.serialize(schedule)
    assert config["module"] == "keras.optimizers.schedules"
    rebuilt = schedules.deserialize(config)
    assert type(rebuilt) is type(schedule) and rebuilt.get_config() == schedule.get_config()
    np.testing.assert_allclose(float(np.asarray(rebuilt(3))), float(np.asarray(schedule(3))))


def test_result_is_float32():
    assert (
        ops.dtype(schedules.ExponentialDecay(1, 2, 0.5)(ops.convert_to_tensor(3, "int64")))
        == "float32"
    )


def test_keras_config_names():
    assert schedules.CosineDecayRestarts(0.1, 10).get_config() == {
        "initial_learning_rate": 0.1,
        "first_decay_steps": 10,
        "t_mul": 2.0,
        "m_mul": 1.0,
        "alpha": 0.0,
        "name": "SGDRDecay",
    }
    assert (
        schedules.PiecewiseConstantDecay([1], [0.1, 0.2]).get_config()["name"]
        == "PiecewiseConstant"
    )


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: schedules.ExponentialDecay(0.1, 0, 0.9), "decay_steps"),
        (lambda: schedules.InverseTimeDecay(0.1, -1, 0.9), "decay_steps"),
        (lambda: schedules.PolynomialDecay(0.1, 0), "decay_steps"),
        (lambda: schedules.CosineDecay(0.1, 0), "decay_steps"),
        (lambda: schedules.CosineDecayRestarts(0.1, 0), "first_decay_steps"),
        (lambda: schedules.PiecewiseConstantDecay([1, 2], [0.1]), "boundaries"),
    ],
)
def test_bad_arguments(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_base_class_is_abstract():
    with pytest.raises(NotImplementedError):
        schedules.LearningRateSchedule()(0)
