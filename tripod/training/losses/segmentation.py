"""Overlap losses for segmentation: Dice and Tversky, over the axes given (all by default)."""

from tripod.backends import active, config
from tripod.training.losses.loss import BuiltinLoss, float_pair

ops = active()


def _axis(axis):
    """An axis list read back from JSON as the tuple it was given as."""
    return tuple(axis) if isinstance(axis, list) else axis


def dice(y_true, y_pred, axis=None):
    """`1 - 2 * sum(y_true * y_pred) / (sum(y_true) + sum(y_pred) + epsilon)` over `axis`."""
    y_true, y_pred = float_pair(y_true, y_pred, "dice", match=False)
    intersection = ops.sum(ops.multiply(y_true, y_pred), axis=axis)
    total = ops.add(ops.sum(y_true, axis=axis), ops.sum(y_pred, axis=axis))
    return ops.subtract(
        1.0, ops.divide(ops.multiply(2.0, intersection), ops.add(total, config.epsilon()))
    )


def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    """`1 - TP / (TP + alpha * sum(y_true * (1 - y_pred)) + beta * sum((1 - y_true) * y_pred) +
    epsilon)` over `axis`, with `TP = sum(y_true * y_pred)`; alpha = beta = 0.5 gives Dice."""
    y_true, y_pred = float_pair(y_true, y_pred, "tversky", match=False)
    true_positives = ops.sum(ops.multiply(y_true, y_pred), axis=axis)
    missed = ops.sum(ops.multiply(y_true, ops.subtract(1.0, y_pred)), axis=axis)
    spurious = ops.sum(ops.multiply(ops.subtract(1.0, y_true), y_pred), axis=axis)
    denominator = ops.add(
        true_positives, ops.add(ops.multiply(alpha, missed), ops.multiply(beta, spurious))
    )
    return ops.subtract(1.0, ops.divide(true_positives, ops.add(denominator, config.epsilon())))


class Dice(BuiltinLoss):
    """The Dice loss, `1 - ` the Dice coefficient over `axis` (every axis when None)."""

    def __init__(self, reduction="sum_over_batch_size", name="dice", axis=None, dtype=None):
        super().__init__(dice, name=name, reduction=reduction, dtype=dtype, axis=_axis(axis))


class Tversky(BuiltinLoss):
    """The Tversky loss: Dice with `alpha` weighting the missed mass (`y_true * (1 - y_pred)`)
    and `beta` the spurious mass (`(1 - y_true) * y_pred`), as Keras 3 computes it."""

    def __init__(
        self,
        alpha=0.5,
        beta=0.5,
        reduction="sum_over_batch_size",
        name="tversky",
        axis=None,
        dtype=None,
    ):
        super().__init__(
            tversky,
            name=name,
            reduction=reduction,
            dtype=dtype,
            alpha=alpha,
            beta=beta,
            axis=_axis(axis),
        )
