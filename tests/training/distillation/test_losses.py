"""The distillation losses against NumPy references, and their argument checks and configs."""

import numpy as np
import pytest

import tripod
from tripod import distillation
from tripod.saving import serialization

TEACHER = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "float32")
STUDENT = np.array([[2.0, 1.0, 4.0], [3.0, 6.0, 2.0]], "float32")


def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def kl_times_t2(teacher, student, temperature):
    """Hinton et al.'s loss: batch mean of KL(teacher || student) of the softened softmaxes,
    times the squared temperature."""
    p, q = softmax(teacher / temperature), softmax(student / temperature)
    return (p * np.log(p / q)).sum(-1).mean() * temperature**2


@pytest.mark.parametrize("loss", ["kl_divergence", "kld", "KLDivergence"])
def test_logits_distillation_is_the_kl_of_softened_softmaxes_times_t_squared(loss):
    value = distillation.LogitsDistillation(3.0, loss).compute_loss(TEACHER, STUDENT)
    assert float(value) == pytest.approx(kl_times_t2(TEACHER, STUDENT, 3.0), rel=1e-5)


def test_logits_distillation_defaults_and_other_losses_compare_the_scaled_logits():
    default = distillation.LogitsDistillation()
    assert default.temperature == 3.0
    assert float(default.compute_loss(TEACHER, STUDENT)) == pytest.approx(
        kl_times_t2(TEACHER, STUDENT, 3.0), rel=1e-5
    )
    mse = distillation.LogitsDistillation(2.0, tripod.losses.MeanSquaredError())
    expected = np.mean((TEACHER / 2.0 - STUDENT / 2.0) ** 2)
    assert float(mse.compute_loss(TEACHER, STUDENT)) == pytest.approx(expected, rel=1e-5)
    assert float(default.compute_loss(TEACHER, TEACHER)) == pytest.approx(0.0, abs=1e-6)


def test_several_outputs_sum_their_losses_and_none_skips_one():
    loss = distillation.FeatureDistillation(["mse", None, "mae"])
    teacher, student = [TEACHER, TEACHER, TEACHER], [STUDENT, STUDENT * 9, STUDENT]
    expected = np.mean((TEACHER - STUDENT) ** 2) + np.mean(np.abs(TEACHER - STUDENT))
    assert float(loss.compute_loss(teacher, student)) == pytest.approx(expected, rel=1e-5)
    logits = distillation.LogitsDistillation(2.0, {"a": "kl_divergence", "b": None})
    value = logits.compute_loss({"a": TEACHER, "b": TEACHER}, {"a": STUDENT, "b": TEACHER})
    assert float(value) == pytest.approx(kl_times_t2(TEACHER, STUDENT, 2.0), rel=1e-5)


def test_mismatched_structures_are_refused():
    with pytest.raises(ValueError, match="same nested structure"):
        distillation.LogitsDistillation().validate_outputs(TEACHER, {"out": STUDENT})
    with pytest.raises(ValueError, match="structure of `loss`"):
        distillation.FeatureDistillation(["mse", "mse"]).validate_outputs(TEACHER, STUDENT)


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: distillation.LogitsDistillation(temperature=0.0), "`temperature` must be posi"),
        (lambda: distillation.LogitsDistillation(temperature="3"), "`temperature` must be a num"),
        (lambda: distillation.LogitsDistillation(loss=None), "`loss` must hold at least one"),
        (lambda: distillation.FeatureDistillation(loss=[None, None]), "`loss` must hold"),
        (lambda: distillation.FeatureDistillation(loss="no_such_loss"), "no_such_loss"),
    ],
)
def test_bad_arguments_name_the_argument(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_the_base_class_asks_for_compute_loss():
    class Unfinished(distillation.DistillationLoss):
        pass

    with pytest.raises(NotImplementedError, match="Unfinished must implement compute_loss"):
        Unfinished().compute_loss(TEACHER, STUDENT)


@pytest.mark.parametrize(
    "loss",
    [
        distillation.LogitsDistillation(4.0, ["kl_divergence", None]),
        distillation.FeatureDistillation(tripod.losses.MeanAbsoluteError(), "t_dense", "s_dense"),
    ],
)
def test_a_loss_rebuilds_from_its_serialized_config(loss):
    rebuilt = serialization.deserialize_keras_object(serialization.serialize_keras_object(loss))
    assert type(rebuilt) is type(loss) and rebuilt.get_config() == loss.get_config()
    teacher, student = (
        ([TEACHER, TEACHER], [STUDENT, STUDENT])
        if isinstance(loss.loss, list)
        else (TEACHER, STUDENT)
    )
    assert float(rebuilt.compute_loss(teacher, student)) == pytest.approx(
        float(loss.compute_loss(teacher, student))
    )
