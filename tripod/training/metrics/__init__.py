"""Metrics: `Metric` and every Keras 3 metric class and function, with `get`, `serialize` and
`deserialize` (registered under `keras.metrics`, so Keras configs name the same objects)."""

from tripod.layers import naming
from tripod.saving import registry, serialization
from tripod.training.losses import (
    binary_crossentropy,
    binary_focal_crossentropy,
    categorical_crossentropy,
    categorical_focal_crossentropy,
    categorical_hinge,
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
)
from tripod.training.metrics.accuracy_metrics import (
    Accuracy,
    BinaryAccuracy,
    CategoricalAccuracy,
    SparseCategoricalAccuracy,
    SparseTopKCategoricalAccuracy,
    TopKCategoricalAccuracy,
    binary_accuracy,
    categorical_accuracy,
    sparse_categorical_accuracy,
    sparse_top_k_categorical_accuracy,
    top_k_categorical_accuracy,
)
from tripod.training.metrics.auc_metric import AUC
from tripod.training.metrics.confusion_metrics import (
    FalseNegatives,
    FalsePositives,
    Precision,
    PrecisionAtRecall,
    Recall,
    RecallAtPrecision,
    SensitivityAtSpecificity,
    SpecificityAtSensitivity,
    TrueNegatives,
    TruePositives,
)
from tripod.training.metrics.f_score_metrics import F1Score, FBetaScore
from tripod.training.metrics.hinge_metrics import CategoricalHinge, Hinge, SquaredHinge
from tripod.training.metrics.iou_metrics import BinaryIoU, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU
from tripod.training.metrics.metric import Metric
from tripod.training.metrics.probabilistic_metrics import (
    BinaryCrossentropy,
    CategoricalCrossentropy,
    KLDivergence,
    Poisson,
    SparseCategoricalCrossentropy,
)
from tripod.training.metrics.reduction_metrics import Mean, MeanMetricWrapper, Sum
from tripod.training.metrics.regression_metrics import (
    ConcordanceCorrelation,
    CosineSimilarity,
    LogCoshError,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    MeanSquaredLogarithmicError,
    PearsonCorrelation,
    R2Score,
    RootMeanSquaredError,
    concordance_correlation,
    pearson_correlation,
)

_MODULE = "keras.metrics"

_CLASSES = (
    AUC,
    Accuracy,
    BinaryAccuracy,
    BinaryCrossentropy,
    BinaryIoU,
    CategoricalAccuracy,
    CategoricalCrossentropy,
    CategoricalHinge,
    ConcordanceCorrelation,
    CosineSimilarity,
    F1Score,
    FBetaScore,
    FalseNegatives,
    FalsePositives,
    Hinge,
    IoU,
    KLDivergence,
    LogCoshError,
    Mean,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanIoU,
    MeanMetricWrapper,
    MeanSquaredError,
    MeanSquaredLogarithmicError,
    Metric,
    OneHotIoU,
    OneHotMeanIoU,
    PearsonCorrelation,
    Poisson,
    Precision,
    PrecisionAtRecall,
    R2Score,
    Recall,
    RecallAtPrecision,
    RootMeanSquaredError,
    SensitivityAtSpecificity,
    SparseCategoricalAccuracy,
    SparseCategoricalCrossentropy,
    SparseTopKCategoricalAccuracy,
    SpecificityAtSensitivity,
    SquaredHinge,
    Sum,
    TopKCategoricalAccuracy,
    TrueNegatives,
    TruePositives,
)

_FUNCTIONS = (
    binary_accuracy,
    binary_crossentropy,
    binary_focal_crossentropy,
    categorical_accuracy,
    categorical_crossentropy,
    categorical_focal_crossentropy,
    categorical_hinge,
    concordance_correlation,
    hinge,
    huber,
    kl_divergence,
    log_cosh,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    mean_squared_logarithmic_error,
    pearson_correlation,
    poisson,
    sparse_categorical_accuracy,
    sparse_categorical_crossentropy,
    sparse_top_k_categorical_accuracy,
    squared_hinge,
    top_k_categorical_accuracy,
)

for _obj in _CLASSES + _FUNCTIONS:
    registry.register_builtin(_obj, _MODULE)

#: Every name `get` accepts for a built-in: class names, their snake_case forms, function names
#: (a class wins over the function of the same name, as in Keras) and the usual abbreviations.
_BY_NAME = {
    **{fn.__name__: fn for fn in _FUNCTIONS},
    **{cls.__name__: cls for cls in _CLASSES},
    **{naming.to_snake_case(cls.__name__): cls for cls in _CLASSES},
    "mse": MeanSquaredError,
    "mae": MeanAbsoluteError,
    "mape": MeanAbsolutePercentageError,
    "msle": MeanSquaredLogarithmicError,
    "kld": KLDivergence,
    "logcosh": LogCoshError,
    "log_cosh": LogCoshError,
    "iou": IoU,
    "mean_iou": MeanIoU,
    "binary_iou": BinaryIoU,
    "fbeta_score": FBetaScore,
}
_BY_NAME.pop("metric")
_BY_NAME.pop("Metric")


def serialize(metric):
    """The JSON-ready config of a metric (or metric function)."""
    return serialization.serialize_keras_object(metric)


def deserialize(config, custom_objects=None):
    """A metric (or metric function) from its config or name."""
    if isinstance(config, str):
        found = _BY_NAME.get(config) or registry.get_registered_object(config, custom_objects)
        if found is None:
            raise ValueError(f"Could not interpret metric identifier: {config}")
        return found() if isinstance(found, type) else found
    if isinstance(config, dict) and "class_name" in config and not config.get("module"):
        config = {**config, "module": _MODULE}
    return serialization.deserialize_keras_object(config, custom_objects)


def get(identifier):
    """A metric from None, a Metric, a config dict, a name ("accuracy", "mse", "AUC", ...) or a
    callable (returned as it is). Names of classes give a new instance; function names without a
    class of their own (e.g. "huber") give the function."""
    if identifier is None or isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, (dict, str)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret metric identifier: {identifier!r}")


__all__ = [obj.__name__ for obj in _CLASSES + _FUNCTIONS] + ["deserialize", "get", "serialize"]
