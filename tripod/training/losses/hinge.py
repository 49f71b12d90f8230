"""Hinge losses for maximum-margin classifiers: hinge, squared hinge and categorical hinge."""

from tripod.backends import active
from tripod.training.losses.loss import BuiltinLoss, float_pair

ops = active()


def _signed_labels(y_true):
    """Labels in {-1, 1}: labels given as all 0s and 1s are mapped there, others kept."""
    is_binary = ops.all(ops.logical_or(ops.equal(y_true, 0), ops.equal(y_true, 1)))
    return ops.where(is_binary, ops.subtract(ops.multiply(y_true, 2.0), 1.0), y_true)


def _margins(y_true, y_pred, name):
    y_true, y_pred = float_pair(y_true, y_pred, name)
    return ops.relu(ops.subtract(1.0, ops.multiply(_signed_labels(y_true), y_pred)))


def hinge(y_true, y_pred):
    """Mean of `max(1 - y_true * y_pred, 0)` over the last axis (0/1 labels become -1/1)."""
    return ops.mean(_margins(y_true, y_pred, "hinge"), axis=-1)


def squared_hinge(y_true, y_pred):
    """Mean of `max(1 - y_true * y_pred, 0) ** 2` over the last axis (0/1 labels become -1/1)."""
    return ops.mean(ops.square(_margins(y_true, y_pred, "squared_hinge")), axis=-1)


def categorical_hinge(y_true, y_pred):
    """`max(neg - pos + 1, 0)`: `pos` the score of the true class, `neg` the best other score."""
    y_true, y_pred = float_pair(y_true, y_pred, "categorical_hinge")
    positive = ops.sum(ops.multiply(y_true, y_pred), axis=-1)
    negative = ops.max(ops.multiply(ops.subtract(1.0, y_true), y_pred), axis=-1)
    return ops.relu(ops.add(ops.subtract(negative, positive), 1.0))


class Hinge(BuiltinLoss):
    """The hinge loss (`hinge`); labels are -1/1, or 0/1 mapped to -1/1."""

    def __init__(self, reduction="sum_over_batch_size", name="hinge", dtype=None):
        super().__init__(hinge, name=name, reduction=reduction, dtype=dtype)


class SquaredHinge(BuiltinLoss):
    """The squared hinge loss (`squared_hinge`); labels are -1/1, or 0/1 mapped to -1/1."""

    def __init__(self, reduction="sum_over_batch_size", name="squared_hinge", dtype=None):
        super().__init__(squared_hinge, name=name, reduction=reduction, dtype=dtype)


class CategoricalHinge(BuiltinLoss):
    """The categorical hinge loss between one-hot labels and class scores (`categorical_hinge`)."""

    def __init__(self, reduction="sum_over_batch_size", name="categorical_hinge", dtype=None):
        super().__init__(categorical_hinge, name=name, reduction=reduction, dtype=dtype)
