"""Losses: `Loss` classes reducing per-sample values over a batch, and the per-sample functions.

`get(identifier)` turns what `compile(loss=...)` accepts into a loss: a name (`"mse"`,
`"sparse_categorical_crossentropy"`, `"Huber"`, ...), a config, or any callable.
"""

from tripod.saving import registry, serialization
from tripod.training.losses.ctc import CTC, ctc
from tripod.training.losses.hinge import (
    CategoricalHinge,
    Hinge,
    SquaredHinge,
    categorical_hinge,
    hinge,
    squared_hinge,
)
from tripod.training.losses.loss import Loss, LossFunctionWrapper
from tripod.training.losses.metric_learning import Circle, circle
from tripod.training.losses.probabilistic import (
    BinaryCrossentropy,
    BinaryFocalCrossentropy,
    CategoricalCrossentropy,
    CategoricalFocalCrossentropy,
    CategoricalGeneralizedCrossEntropy,
    KLDivergence,
    Poisson,
    SparseCategoricalCrossentropy,
    binary_crossentropy,
    binary_focal_crossentropy,
    categorical_crossentropy,
    categorical_focal_crossentropy,
    categorical_generalized_cross_entropy,
    kl_divergence,
    poisson,
    sparse_categorical_crossentropy,
)
from tripod.training.losses.regression import (
    CosineSimilarity,
    Huber,
    LogCosh,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    MeanSquaredLogarithmicError,
    cosine_similarity,
    huber,
    log_cosh,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    mean_squared_logarithmic_error,
)
from tripod.training.losses.segmentation import Dice, Tversky, dice, tversky

CLASSES = (
    Loss,
    LossFunctionWrapper,
    BinaryCrossentropy,
    BinaryFocalCrossentropy,
    CTC,
    CategoricalCrossentropy,
    CategoricalFocalCrossentropy,
    CategoricalGeneralizedCrossEntropy,
    CategoricalHinge,
    Circle,
    CosineSimilarity,
    Dice,
    Hinge,
    Huber,
    KLDivergence,
    LogCosh,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    MeanSquaredLogarithmicError,
    Poisson,
    SparseCategoricalCrossentropy,
    SquaredHinge,
    Tversky,
)
FUNCTIONS = (
    binary_crossentropy,
    binary_focal_crossentropy,
    categorical_crossentropy,
    categorical_focal_crossentropy,
    categorical_generalized_cross_entropy,
    categorical_hinge,
    circle,
    cosine_similarity,
    ctc,
    dice,
    hinge,
    huber,
    kl_divergence,
    log_cosh,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    mean_squared_logarithmic_error,
    poisson,
    sparse_categorical_crossentropy,
    squared_hinge,
    tversky,
)

# Keras's short names for the common functions.
mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kl_divergence
bce = BCE = binary_crossentropy
ALIASES = {
    "mse": mse,
    "MSE": MSE,
    "mae": mae,
    "MAE": MAE,
    "mape": mape,
    "MAPE": MAPE,
    "msle": msle,
    "MSLE": MSLE,
    "kld": kld,
    "KLD": KLD,
    "bce": bce,
    "BCE": BCE,
}

#: every name `get` and `deserialize` know: class names, function names and aliases
ALL_OBJECTS = {**{obj.__name__: obj for obj in CLASSES + FUNCTIONS}, **ALIASES}

for _obj in CLASSES + FUNCTIONS:
    registry.register_builtin(_obj, "keras.losses")


def _lookup(name, custom_objects=None):
    """The class or function `name` denotes: a user-registered one, or a built-in."""
    found = registry.get_registered_object(name, custom_objects, module_objects=ALL_OBJECTS)
    if found is None:
        raise ValueError(f"Unknown loss {name!r}; built-in losses are {sorted(ALL_OBJECTS)}.")
    return found


def serialize(loss):
    """The config of a loss object, or the reference of a loss function."""
    return serialization.serialize_keras_object(loss)


def deserialize(name, custom_objects=None):
    """A loss from a name, a config dict or a serialized function reference."""
    if isinstance(name, str):
        found = _lookup(name, custom_objects)
        return found() if isinstance(found, type) else found
    if isinstance(name, dict) and name.get("class_name") == "function":
        return _lookup(name.get("config"), custom_objects)
    return serialization.deserialize_keras_object(name, custom_objects)


def get(identifier):
    """A loss from None, a name, a config or a callable (a `Loss` or a function, returned as is)."""
    if identifier is None:
        return None
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss identifier: {identifier!r}.")


__all__ = [
    "BCE",
    "CTC",
    "KLD",
    "MAE",
    "MAPE",
    "MSE",
    "MSLE",
    "BinaryCrossentropy",
    "BinaryFocalCrossentropy",
    "CategoricalCrossentropy",
    "CategoricalFocalCrossentropy",
    "CategoricalGeneralizedCrossEntropy",
    "CategoricalHinge",
    "Circle",
    "CosineSimilarity",
    "Dice",
    "Hinge",
    "Huber",
    "KLDivergence",
    "LogCosh",
    "Loss",
    "LossFunctionWrapper",
    "MeanAbsoluteError",
    "MeanAbsolutePercentageError",
    "MeanSquaredError",
    "MeanSquaredLogarithmicError",
    "Poisson",
    "SparseCategoricalCrossentropy",
    "SquaredHinge",
    "Tversky",
    "bce",
    "binary_crossentropy",
    "binary_focal_crossentropy",
    "categorical_crossentropy",
    "categorical_focal_crossentropy",
    "categorical_generalized_cross_entropy",
    "categorical_hinge",
    "circle",
    "cosine_similarity",
    "ctc",
    "deserialize",
    "dice",
    "get",
    "hinge",
    "huber",
    "kl_divergence",
    "kld",
    "log_cosh",
    "mae",
    "mape",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_squared_error",
    "mean_squared_logarithmic_error",
    "mse",
    "msle",
    "poisson",
    "serialize",
    "sparse_categorical_crossentropy",
    "squared_hinge",
    "tversky",
]
