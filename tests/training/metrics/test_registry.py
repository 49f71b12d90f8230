"""get / serialize / deserialize, Keras names, and config round trips of every metric."""

import json

import numpy as np
import pytest

from tests.training.metrics.helpers import assert_close
from tripod.saving import registry, serialization
from tripod.training import metrics

KERAS_CLASSES = [
    "AUC",
    "Accuracy",
    "BinaryAccuracy",
    "BinaryCrossentropy",
    "BinaryIoU",
    "CategoricalAccuracy",
    "CategoricalCrossentropy",
    "CategoricalHinge",
    "ConcordanceCorrelation",
    "CosineSimilarity",
    "F1Score",
    "FBetaScore",
    "FalseNegatives",
    "FalsePositives",
    "Hinge",
    "IoU",
    "KLDivergence",
    "LogCoshError",
    "Mean",
    "MeanAbsoluteError",
    "MeanAbsolutePercentageError",
    "MeanIoU",
    "MeanMetricWrapper",
    "MeanSquaredError",
    "MeanSquaredLogarithmicError",
    "Metric",
    "OneHotIoU",
    "OneHotMeanIoU",
    "PearsonCorrelation",
    "Poisson",
    "Precision",
    "PrecisionAtRecall",
    "R2Score",
    "Recall",
    "RecallAtPrecision",
    "RootMeanSquaredError",
    "SensitivityAtSpecificity",
    "SparseCategoricalAccuracy",
    "SparseCategoricalCrossentropy",
    "SparseTopKCategoricalAccuracy",
    "SpecificityAtSensitivity",
    "SquaredHinge",
    "Sum",
    "TopKCategoricalAccuracy",
    "TrueNegatives",
    "TruePositives",
]

KERAS_FUNCTIONS = [
    "binary_accuracy",
    "binary_crossentropy",
    "binary_focal_crossentropy",
    "categorical_accuracy",
    "categorical_crossentropy",
    "categorical_focal_crossentropy",
    "categorical_hinge",
    "concordance_correlation",
    "deserialize",
    "get",
    "hinge",
    "huber",
    "kl_divergence",
    "log_cosh",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_squared_error",
    "mean_squared_logarithmic_error",
    "pearson_correlation",
    "poisson",
    "serialize",
    "sparse_categorical_accuracy",
    "sparse_categorical_crossentropy",
    "sparse_top_k_categorical_accuracy",
    "squared_hinge",
    "top_k_categorical_accuracy",
]

#: Arguments for the classes that need some.
REQUIRED = {
    "IoU": {"num_classes": 3, "target_class_ids": [0, 2]},
    "MeanIoU": {"num_classes": 3},
    "OneHotIoU": {"num_classes": 3, "target_class_ids": [1]},
    "OneHotMeanIoU": {"num_classes": 3},
    "PrecisionAtRecall": {"recall": 0.5},
    "RecallAtPrecision": {"precision": 0.5},
    "SensitivityAtSpecificity": {"specificity": 0.5},
    "SpecificityAtSensitivity": {"sensitivity": 0.5},
    "MeanMetricWrapper": {"fn": metrics.mean_absolute_error},
}


def test_every_keras_name_is_exported():
    assert set(KERAS_CLASSES + KERAS_FUNCTIONS) <= set(metrics.__all__)
    assert all(hasattr(metrics, name) for name in metrics.__all__)


@pytest.mark.parametrize(
    "identifier, cls",
    [
        ("accuracy", metrics.Accuracy),
        ("binary_accuracy", metrics.BinaryAccuracy),
        ("categorical_accuracy", metrics.CategoricalAccuracy),
        ("sparse_categorical_accuracy", metrics.SparseCategoricalAccuracy),
        ("top_k_categorical_accuracy", metrics.TopKCategoricalAccuracy),
        ("mse", metrics.MeanSquaredError),
        ("mean_squared_error", metrics.MeanSquaredError),
        ("mae", metrics.MeanAbsoluteError),
        ("mape", metrics.MeanAbsolutePercentageError),
        ("msle", metrics.MeanSquaredLogarithmicError),
        ("auc", metrics.AUC),
        ("AUC", metrics.AUC),
        ("precision", metrics.Precision),
        ("Recall", metrics.Recall),
        ("binary_crossentropy", metrics.BinaryCrossentropy),
        ("kl_divergence", metrics.KLDivergence),
        ("logcosh", metrics.LogCoshError),
        ("f1_score", metrics.F1Score),
        ("r2_score", metrics.R2Score),
        ("MeanSquaredError", metrics.MeanSquaredError),
    ],
)
def test_get_names(identifier, cls):
    metric = metrics.get(identifier)
    assert type(metric) is cls


def test_get_other_identifiers():
    assert metrics.get(None) is None
    m = metrics.Mean()
    assert metrics.get(m) is m
    assert metrics.get("huber") is metrics.huber
    assert metrics.get(np.mean) is np.mean
    from_config = metrics.get(
        {"class_name": "BinaryAccuracy", "config": {"threshold": 0.7, "name": "b"}}
    )
    assert (
        isinstance(from_config, metrics.BinaryAccuracy)
        and from_config.get_config()["threshold"] == 0.7
    )
    with pytest.raises(ValueError, match="metric identifier"):
        metrics.get("no_such_metric")
    with pytest.raises(ValueError, match="metric identifier"):
        metrics.get(3)


def test_names_are_unique_for_metrics_without_a_fixed_default():
    first, second = metrics.get("auc"), metrics.get("auc")
    assert first.name != second.name
    assert metrics.get("accuracy").name == "accuracy"


@pytest.mark.parametrize("name", [n for n in KERAS_CLASSES if n != "Metric"])
def test_config_round_trip_through_json(name):
    cls = getattr(metrics, name)
    metric = cls(**REQUIRED.get(name, {}))
    config = json.loads(json.dumps(metrics.serialize(metric)))
    assert config["module"] == "keras.metrics" and config["class_name"] == name
    clone = metrics.deserialize(config)
    assert type(clone) is cls
    assert clone.get_config() == metric.get_config()
    assert clone.name == metric.name


def test_functions_serialize_by_name():
    config = metrics.serialize(metrics.sparse_top_k_categorical_accuracy)
    assert config["class_name"] == "function"
    assert metrics.deserialize(config) is metrics.sparse_top_k_categorical_accuracy
    assert registry.builtin_module(metrics.binary_accuracy) == "keras.metrics"


def test_deserialize_without_module_prefers_metrics():
    hinge = metrics.deserialize(
        {"class_name": "Hinge", "config": {"name": "h", "dtype": "float32"}}
    )
    assert isinstance(hinge, metrics.Hinge)


def test_user_metric_registered_and_rebuilt():
    @registry.register_keras_serializable(package="MetricTests")
    class Twice(metrics.Mean):
        def update_state(self, values, sample_weight=None):
            super().update_state(np.multiply(values, 2.0), sample_weight)

    config = serialization.serialize_keras_object(Twice(name="twice"))
    clone = metrics.deserialize(config)
    clone.update_state([1.0, 2.0])
    assert isinstance(clone, Twice) and clone.name == "twice"
    assert_close(clone.result(), 3.0)
