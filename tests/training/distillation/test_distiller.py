"""`Distiller`: training a student from a frozen teacher, its loss against a NumPy reference,
its config and weights, and its argument checks."""

import json

import numpy as np
import pytest

import tripod
from tripod import distillation, layers
from tripod.api import stand_in
from tripod.backends import config

needs_training = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)
RNG = np.random.RandomState(0)
X = RNG.randn(32, 4).astype("float32")
Y = RNG.randint(0, 3, 32)


def mlp(name, width=8, batch_norm=False):
    """A functional model 4 -> width -> 3 whose hidden layer is `<name>_hidden`."""
    inputs = tripod.Input((4,))
    hidden = layers.Dense(width, activation="relu", name=f"{name}_hidden")(inputs)
    if batch_norm:
        hidden = layers.BatchNormalization(name=f"{name}_norm")(hidden)
    return tripod.Model(inputs, layers.Dense(3, name=f"{name}_out")(hidden), name=name)


def two_losses():
    return [
        distillation.LogitsDistillation(temperature=2.0),
        distillation.FeatureDistillation("mse", "teacher_hidden", "student_hidden"),
    ]


@needs_training
def test_fit_lowers_the_distillation_loss_and_leaves_the_teacher_untouched():
    tripod.utils.set_random_seed(0)
    teacher, student = mlp("teacher", batch_norm=True), mlp("student")
    before = {w.path: np.array(w) for w in teacher.weights}  # BatchNormalization's statistics too
    distiller = distillation.Distiller(teacher, student, two_losses(), [1.0, 0.5], 0.2)
    distiller.compile(tripod.optimizers.Adam(0.05), "sparse_categorical_crossentropy", ["accuracy"])
    history = distiller.fit(X, Y, batch_size=16, epochs=6, verbose=0).history
    assert {"loss", "accuracy", "student_loss", "distillation_loss", "total_loss"} <= set(history)
    assert history["distillation_loss"][-1] < 0.7 * history["distillation_loss"][0]
    assert history["total_loss"] == pytest.approx(history["loss"], rel=1e-5)
    assert all(np.array_equal(before[w.path], np.array(w)) for w in teacher.weights)
    assert not teacher.trainable and student.trainable
    assert len(distiller.trainable_weights) == len(student.trainable_weights)


def test_evaluate_matches_a_numpy_reference_and_predict_gives_the_student():
    teacher, student = mlp("teacher"), mlp("student")
    losses = [
        distillation.LogitsDistillation(2.0),
        distillation.FeatureDistillation("mse", "teacher_hidden", "student_hidden"),
    ]
    distiller = distillation.Distiller(teacher, student, losses, [1.0, 0.5], 0.25)
    distiller.compile("sgd", tripod.losses.SparseCategoricalCrossentropy(from_logits=True))
    logs = distiller.evaluate(X, Y, batch_size=32, verbose=0, return_dict=True)

    def forward(model):
        kernel, bias, out_kernel, out_bias = model.get_weights()
        hidden = np.maximum(X @ kernel + bias, 0.0)
        return hidden, hidden @ out_kernel + out_bias

    (t_hidden, t_logits), (s_hidden, s_logits) = forward(teacher), forward(student)
    student_loss = -np.log(softmax(s_logits)[np.arange(len(Y)), Y]).mean()
    p, q = softmax(t_logits / 2.0), softmax(s_logits / 2.0)
    kl = (p * np.log(p / q)).sum(-1).mean() * 4.0
    distill = kl + 0.5 * np.mean((t_hidden - s_hidden) ** 2)
    assert logs["student_loss"] == pytest.approx(student_loss, rel=1e-4)
    assert logs["distillation_loss"] == pytest.approx(distill, rel=1e-4)
    assert logs["loss"] == pytest.approx(0.25 * student_loss + 0.75 * distill, rel=1e-4)
    np.testing.assert_allclose(distiller.predict(X, verbose=0), s_logits, rtol=1e-4, atol=1e-5)


def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_config_weights_and_saved_model_round_trip(tmp_path):
    distiller = distillation.Distiller(mlp("teacher"), mlp("student"), two_losses(), [1.0, 0.5])
    distiller.compile("adam", "sparse_categorical_crossentropy")
    expected = distiller.predict(X, verbose=0)
    config_dict = json.loads(json.dumps(distiller.get_config()))
    rebuilt = distillation.Distiller.from_config(config_dict)
    assert (rebuilt.student_loss_weight, rebuilt.distillation_loss_weights) == (0.5, [1.0, 0.5])
    assert [type(loss) for loss in rebuilt.distillation_losses] == [
        distillation.LogitsDistillation,
        distillation.FeatureDistillation,
    ]
    assert not rebuilt.teacher.trainable
    distiller.save_weights(tmp_path / "d.weights.h5")
    rebuilt.load_weights(tmp_path / "d.weights.h5")
    np.testing.assert_allclose(rebuilt.predict(X, verbose=0), expected, rtol=1e-6)
    distiller.save(tmp_path / "d.keras")
    loaded = tripod.saving.load_model(tmp_path / "d.keras")
    assert isinstance(loaded, distillation.Distiller) and loaded.compiled
    np.testing.assert_allclose(loaded.predict(X, verbose=0), expected, rtol=1e-6)
    assert loaded.distillation_losses[1].teacher_layer_name == "teacher_hidden"


class Subclassed(tripod.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = layers.Dense(3)

    def call(self, x):
        return self.dense(x)


def _distiller(**overrides):
    arguments = {
        "teacher": mlp("teacher"),
        "student": mlp("student"),
        "distillation_losses": distillation.LogitsDistillation(),
    }
    return distillation.Distiller(**{**arguments, **overrides})


def _narrow_student():
    inputs = tripod.Input((4,))
    return tripod.Model(inputs, layers.Dense(5)(inputs))


@pytest.mark.parametrize(
    ("overrides", "match"),
    [
        ({"teacher": "a model"}, "`teacher` must be a tripod Model"),
        ({"student": layers.Dense(3)}, "`student` must be a tripod Model"),
        ({"student": _narrow_student()}, r"outputs have incompatible shapes.*\(None, 5\)"),
        ({"student_loss_weight": 1.5}, "`student_loss_weight` must be between 0 and 1"),
        ({"student_loss_weight": "0.5"}, "`student_loss_weight` must be a number"),
        ({"distillation_losses": None}, "`distillation_losses` cannot be None"),
        ({"distillation_losses": ["mse"]}, "every item of `distillation_losses`"),
        (
            {"distillation_losses": two_losses(), "distillation_loss_weights": [1.0]},
            "`distillation_loss_weights` has 1 weights for 2",
        ),
        (
            {"distillation_losses": distillation.FeatureDistillation("mse", "nope")},
            "in the teacher model: No such layer: 'nope'",
        ),
        (
            {
                "student": Subclassed(),
                "distillation_losses": distillation.FeatureDistillation("mse", None, "x"),
            },
            "`student_layer_name` needs a functional or Sequential student",
        ),
    ],
)
def test_bad_arguments_name_the_argument(overrides, match):
    with pytest.raises(ValueError, match=match):
        _distiller(**overrides)


def test_compile_needs_the_student_loss():
    with pytest.raises(ValueError, match="`loss` cannot be None"):
        _distiller().compile("adam")
    with pytest.raises(ValueError, match="`metrics` must be a list or tuple"):
        _distiller().compile("adam", "mse", metrics="mae")


def test_the_keras_stand_in_resolves_keras_distillation():
    module = stand_in._module("keras.distillation")
    assert module.Distiller is distillation.Distiller
    assert module.LogitsDistillation is tripod.distillation.LogitsDistillation


@pytest.mark.skipif(config.backend() != "numpy", reason="the numpy backend alone cannot train")
def test_fit_on_the_numpy_backend_gives_the_inference_only_error():
    distiller = _distiller()
    distiller.compile("adam", "sparse_categorical_crossentropy")
    with pytest.raises(NotImplementedError, match="numpy backend is inference-only"):
        distiller.fit(X, Y, verbose=0)


def test_the_student_loss_honours_sample_weights_as_a_compiled_model_does():
    """A difference from Keras 3.15, whose Distiller ignores `sample_weight` (differences.md)."""
    distiller = _distiller()
    distiller.compile("sgd", "sparse_categorical_crossentropy")
    weights = np.repeat([0.0, 2.0], 16).astype("float32")
    logs = distiller.evaluate(X, Y, sample_weight=weights, verbose=0, return_dict=True)
    distiller.student.compile("sgd", "sparse_categorical_crossentropy")
    alone = distiller.student.evaluate(X, Y, sample_weight=weights, verbose=0)
    assert logs["student_loss"] == pytest.approx(alone, rel=1e-5)


def test_subclassed_models_distill_their_outputs():
    """Their `call` takes no `training`: the distiller must not pass `training=None` to it."""
    distiller = distillation.Distiller(
        Subclassed(), Subclassed(), distillation.LogitsDistillation()
    )
    distiller.compile("sgd", "sparse_categorical_crossentropy")
    logs = distiller.evaluate(X, Y, verbose=0, return_dict=True)
    assert np.isfinite(logs["distillation_loss"]) and logs["distillation_loss"] > 0
    assert distiller.predict(X[:2], verbose=0).shape == (2, 3)
