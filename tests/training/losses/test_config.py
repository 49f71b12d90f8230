"""Configs, serialization, `get` identifiers and the Keras 3 signatures of `tripod.losses`."""

import inspect
import json

import pytest

from tests.training.losses import reference as R
from tests.training.losses.cases import CLASS_CASES, REAL
from tests.training.losses.helpers import assert_close
from tripod.saving import registry, serialization
from tripod.training import losses

# The keras.losses section of the Keras 3.15 API list.
KERAS_SIGNATURES = """
class BinaryCrossentropy(from_logits=False, label_smoothing=0.0, axis=-1, reduction='sum_over_batch_size', name='binary_crossentropy', dtype=None)
class BinaryFocalCrossentropy(apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1, reduction='sum_over_batch_size', name='binary_focal_crossentropy', dtype=None)
class CTC(reduction='sum_over_batch_size', name='ctc', dtype=None)
class CategoricalCrossentropy(from_logits=False, label_smoothing=0.0, axis=-1, reduction='sum_over_batch_size', name='categorical_crossentropy', dtype=None)
class CategoricalFocalCrossentropy(alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1, reduction='sum_over_batch_size', name='categorical_focal_crossentropy', dtype=None)
class CategoricalGeneralizedCrossEntropy(q=0.5, reduction='sum_over_batch_size', name='categorical_generalized_cross_entropy', dtype=None)
class CategoricalHinge(reduction='sum_over_batch_size', name='categorical_hinge', dtype=None)
class Circle(gamma=80.0, margin=0.4, remove_diagonal=True, reduction='sum_over_batch_size', name='circle', dtype=None)
class CosineSimilarity(axis=-1, reduction='sum_over_batch_size', name='cosine_similarity', dtype=None)
class Dice(reduction='sum_over_batch_size', name='dice', axis=None, dtype=None)
class Hinge(reduction='sum_over_batch_size', name='hinge', dtype=None)
class Huber(delta=1.0, reduction='sum_over_batch_size', name='huber_loss', dtype=None)
class KLDivergence(reduction='sum_over_batch_size', name='kl_divergence', dtype=None)
class LogCosh(reduction='sum_over_batch_size', name='log_cosh', dtype=None)
class Loss(name=None, reduction='sum_over_batch_size', dtype=None)
class MeanAbsoluteError(reduction='sum_over_batch_size', name='mean_absolute_error', dtype=None)
class MeanAbsolutePercentageError(reduction='sum_over_batch_size', name='mean_absolute_percentage_error', dtype=None)
class MeanSquaredError(reduction='sum_over_batch_size', name='mean_squared_error', dtype=None)
class MeanSquaredLogarithmicError(reduction='sum_over_batch_size', name='mean_squared_logarithmic_error', dtype=None)
class Poisson(reduction='sum_over_batch_size', name='poisson', dtype=None)
class SparseCategoricalCrossentropy(from_logits=False, ignore_class=None, reduction='sum_over_batch_size', axis=-1, name='sparse_categorical_crossentropy', dtype=None)
class SquaredHinge(reduction='sum_over_batch_size', name='squared_hinge', dtype=None)
class Tversky(alpha=0.5, beta=0.5, reduction='sum_over_batch_size', name='tversky', axis=None, dtype=None)
binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1)
binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1)
categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1)
categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1)
categorical_generalized_cross_entropy(y_true, y_pred, q)
categorical_hinge(y_true, y_pred)
circle(y_true, y_pred, ref_labels=None, ref_embeddings=None, remove_diagonal=True, gamma=80, margin=0.4)
cosine_similarity(y_true, y_pred, axis=-1)
ctc(y_true, y_pred)
deserialize(name, custom_objects=None)
dice(y_true, y_pred, axis=None)
get(identifier)
hinge(y_true, y_pred)
huber(y_true, y_pred, delta=1.0)
kl_divergence(y_true, y_pred)
log_cosh(y_true, y_pred)
mean_absolute_error(y_true, y_pred)
mean_absolute_percentage_error(y_true, y_pred)
mean_squared_error(y_true, y_pred)
mean_squared_logarithmic_error(y_true, y_pred)
poisson(y_true, y_pred)
serialize(loss)
sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None, axis=-1)
squared_hinge(y_true, y_pred)
tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None)
""".strip().splitlines()


@pytest.mark.parametrize("line", KERAS_SIGNATURES, ids=lambda line: line.split("(")[0])
def test_keras_names_and_signatures(line):
    name, signature = line.removeprefix("class ").split("(", 1)
    obj = getattr(losses, name)
    assert inspect.isclass(obj) == line.startswith("class ")
    assert str(inspect.signature(obj)) == f"({signature}"
    assert obj.__doc__, f"{name} has no docstring"


@pytest.mark.parametrize("case", CLASS_CASES, ids=[c[0] for c in CLASS_CASES])
def test_config_round_trip(case):
    name, cls, _, (y_true, y_pred), options, _ = case
    loss = cls(reduction="sum", name="custom_name", **options)
    config = loss.get_config()
    assert config["name"] == "custom_name" and config["reduction"] == "sum"
    assert {k: config[k] for k in options} == options
    clone = cls.from_config(config)
    assert clone.get_config() == config
    restored = losses.deserialize(json.loads(json.dumps(losses.serialize(loss))))
    assert type(restored) is cls and restored.get_config() == loss.get_config()
    assert_close(restored(y_true, y_pred), loss(y_true, y_pred), rtol=1e-6, what=name)


def test_serialized_form_names_the_keras_module():
    config = losses.serialize(losses.Huber(delta=2.0))
    assert config == {
        "module": "keras.losses",
        "class_name": "Huber",
        "config": {"name": "huber_loss", "reduction": "sum_over_batch_size", "delta": 2.0},
        "registered_name": None,
    }
    assert losses.serialize(losses.mean_squared_error)["config"] == "mean_squared_error"
    assert (
        losses.deserialize(losses.serialize(losses.mean_squared_error)) is losses.mean_squared_error
    )


def test_dtype_round_trips():
    loss = losses.MeanSquaredError(dtype="float64")
    assert loss.get_config()["dtype"] == "float64"
    assert losses.MeanSquaredError.from_config(loss.get_config()).dtype == "float64"
    assert "dtype" not in losses.MeanSquaredError().get_config()


def test_keras_written_configs_load():
    mse = losses.deserialize(
        {
            "module": "keras.losses",
            "class_name": "MeanSquaredError",
            "config": {"name": "mean_squared_error", "reduction": "sum_over_batch_size"},
            "registered_name": None,
        }
    )
    assert isinstance(mse, losses.MeanSquaredError)
    function = {
        "module": "builtins",
        "class_name": "function",
        "config": "mean_squared_error",
        "registered_name": "function",
    }
    assert losses.deserialize(function) is losses.mean_squared_error
    assert losses.get(function) is losses.mean_squared_error
    wrapper = losses.deserialize(
        {
            "module": "keras.src.losses.losses",
            "class_name": "LossFunctionWrapper",
            "config": {"name": "x", "reduction": "sum_over_batch_size", "fn": function},
            "registered_name": "LossFunctionWrapper",
        }
    )
    assert (
        isinstance(wrapper, losses.LossFunctionWrapper) and wrapper.fn is losses.mean_squared_error
    )
    assert wrapper.name == "x"
    focal = losses.get(
        {
            "module": "keras.losses",
            "class_name": "BinaryFocalCrossentropy",
            "config": {
                "name": "bfce",
                "reduction": "sum",
                "from_logits": True,
                "label_smoothing": 0.1,
                "axis": -1,
                "apply_class_balancing": True,
                "alpha": 0.3,
                "gamma": 1.0,
            },
        }
    )
    assert focal.get_config()["alpha"] == 0.3 and focal.reduction == "sum"


def _twice_mae(y_true, y_pred):
    return 2 * losses.mean_absolute_error(y_true, y_pred)


def test_function_wrapper_round_trips():
    loss = losses.LossFunctionWrapper(losses.huber, name="h", reduction="sum", delta=0.5)
    config = loss.get_config()
    assert config["delta"] == 0.5 and config["fn"]["config"] == "huber"
    restored = losses.deserialize(json.loads(json.dumps(losses.serialize(loss))))
    assert isinstance(restored, losses.LossFunctionWrapper) and restored.fn is losses.huber
    assert restored.get_config() == config
    assert_close(restored(*REAL), R.huber(*REAL, delta=0.5).sum())


def test_registered_custom_function_round_trips():
    custom = registry.register_keras_serializable(package="LossTests")(_twice_mae)
    loss = losses.LossFunctionWrapper(custom)
    restored = losses.deserialize(json.loads(json.dumps(losses.serialize(loss))))
    assert restored.fn is custom
    assert losses.get("LossTests>_twice_mae") is custom
    assert losses.deserialize("twice", custom_objects={"twice": custom}) is custom


def test_registered_custom_class_round_trips():
    @registry.register_keras_serializable(package="LossTests")
    class ScaledMSE(losses.Loss):
        def __init__(self, scale=1.0, **kwargs):
            super().__init__(**kwargs)
            self.scale = scale

        def call(self, y_true, y_pred):
            return 2 * losses.mean_squared_error(y_true, y_pred)

        def get_config(self):
            return {**super().get_config(), "scale": self.scale}

    config = serialization.serialize_keras_object(ScaledMSE(scale=3.0))
    restored = losses.get(json.loads(json.dumps(config)))
    assert (
        isinstance(restored, ScaledMSE) and restored.scale == 3.0 and restored.name == "scaled_mse"
    )


FUNCTION_IDENTIFIERS = {
    "mse": "mean_squared_error",
    "MSE": "mean_squared_error",
    "mean_squared_error": "mean_squared_error",
    "mae": "mean_absolute_error",
    "MAE": "mean_absolute_error",
    "mape": "mean_absolute_percentage_error",
    "MAPE": "mean_absolute_percentage_error",
    "msle": "mean_squared_logarithmic_error",
    "MSLE": "mean_squared_logarithmic_error",
    "kld": "kl_divergence",
    "KLD": "kl_divergence",
    "bce": "binary_crossentropy",
    "BCE": "binary_crossentropy",
    "huber": "huber",
    "log_cosh": "log_cosh",
    "binary_crossentropy": "binary_crossentropy",
    "categorical_crossentropy": "categorical_crossentropy",
    "sparse_categorical_crossentropy": "sparse_categorical_crossentropy",
    "hinge": "hinge",
    "squared_hinge": "squared_hinge",
    "categorical_hinge": "categorical_hinge",
    "poisson": "poisson",
    "cosine_similarity": "cosine_similarity",
    "kl_divergence": "kl_divergence",
    "ctc": "ctc",
    "dice": "dice",
    "tversky": "tversky",
    "circle": "circle",
    "binary_focal_crossentropy": "binary_focal_crossentropy",
    "categorical_focal_crossentropy": "categorical_focal_crossentropy",
    "categorical_generalized_cross_entropy": "categorical_generalized_cross_entropy",
}


@pytest.mark.parametrize("identifier", sorted(FUNCTION_IDENTIFIERS))
def test_get_names_a_function(identifier):
    assert losses.get(identifier) is getattr(losses, FUNCTION_IDENTIFIERS[identifier])


@pytest.mark.parametrize(
    "cls", [c[1] for c in CLASS_CASES] + [losses.Loss], ids=lambda c: c.__name__
)
def test_get_names_a_class(cls):
    loss = losses.get(cls.__name__)
    assert type(loss) is cls


def test_get_passes_objects_through():
    loss = losses.Huber()
    assert losses.get(loss) is loss
    assert losses.get(_twice_mae) is _twice_mae
    assert losses.get(None) is None
    assert isinstance(losses.get({"class_name": "Huber", "config": {"delta": 3.0}}), losses.Huber)


@pytest.mark.parametrize(
    "identifier", [3, "nope", "LossFunctionWrapperX", {"class_name": "Nope", "config": {}}], ids=str
)
def test_get_rejects_unknown_identifiers(identifier):
    with pytest.raises(ValueError):
        losses.get(identifier)


def test_registry_knows_every_loss():
    for obj in losses.CLASSES + losses.FUNCTIONS:
        assert registry.resolve("keras.losses", obj.__name__) is obj
