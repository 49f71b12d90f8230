"""Hinge metrics: the mean hinge, squared hinge or categorical hinge loss over samples."""

from tripod.training import losses
from tripod.training.metrics.reduction_metrics import BuiltinMeanMetric


class Hinge(BuiltinMeanMetric):
    """The mean hinge loss, labels in {-1, 1} (or {0, 1}, mapped to {-1, 1})."""

    def __init__(self, name="hinge", dtype=None):
        super().__init__(losses.hinge, name=name, dtype=dtype)


class SquaredHinge(BuiltinMeanMetric):
    """The mean squared hinge loss."""

    def __init__(self, name="squared_hinge", dtype=None):
        super().__init__(losses.squared_hinge, name=name, dtype=dtype)


class CategoricalHinge(BuiltinMeanMetric):
    """The mean categorical hinge loss over one-hot labels."""

    def __init__(self, name="categorical_hinge", dtype=None):
        super().__init__(losses.categorical_hinge, name=name, dtype=dtype)
