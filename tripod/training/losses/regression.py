"""Regression losses: squared, absolute, percentage and logarithmic errors, Huber, log-cosh and
cosine similarity. Each function returns one value per sample (the mean over the last axis)."""

import math

from tripod.backends import active, config
from tripod.training.losses.loss import BuiltinLoss, float_pair

ops = active()


def mean_squared_error(y_true, y_pred):
    """Mean of `(y_true - y_pred) ** 2` over the last axis."""
    y_true, y_pred = float_pair(y_true, y_pred, "mean_squared_error")
    return ops.mean(ops.square(ops.subtract(y_true, y_pred)), axis=-1)


def mean_absolute_error(y_true, y_pred):
    """Mean of `|y_true - y_pred|` over the last axis."""
    y_true, y_pred = float_pair(y_true, y_pred, "mean_absolute_error")
    return ops.mean(ops.abs(ops.subtract(y_true, y_pred)), axis=-1)


def mean_absolute_percentage_error(y_true, y_pred):
    """`100 * mean(|y_true - y_pred| / max(|y_true|, epsilon))` over the last axis."""
    y_true, y_pred = float_pair(y_true, y_pred, "mean_absolute_percentage_error")
    scale = ops.maximum(ops.abs(y_true), config.epsilon())
    return ops.multiply(
        100.0, ops.mean(ops.abs(ops.divide(ops.subtract(y_true, y_pred), scale)), axis=-1)
    )


def mean_squared_logarithmic_error(y_true, y_pred):
    """Mean of `(log(1 + y_pred) - log(1 + y_true)) ** 2` over the last axis (inputs floored at
    epsilon)."""
    y_true, y_pred = float_pair(y_true, y_pred, "mean_squared_logarithmic_error")
    log_pred = ops.log1p(ops.maximum(y_pred, config.epsilon()))
    log_true = ops.log1p(ops.maximum(y_true, config.epsilon()))
    return ops.mean(ops.square(ops.subtract(log_pred, log_true)), axis=-1)


def huber(y_true, y_pred, delta=1.0):
    """Mean over the last axis of `e**2 / 2` where `|e| <= delta`, else `delta * (|e| - delta/2)`."""
    y_true, y_pred = float_pair(y_true, y_pred, "huber")
    error = ops.abs(ops.subtract(y_pred, y_true))
    delta = ops.cast(delta, ops.dtype(error))
    quadratic = ops.multiply(0.5, ops.square(error))
    linear = ops.subtract(ops.multiply(delta, error), ops.multiply(0.5, ops.square(delta)))
    return ops.mean(ops.where(ops.less_equal(error, delta), quadratic, linear), axis=-1)


def log_cosh(y_true, y_pred):
    """Mean of `log(cosh(y_pred - y_true))` over the last axis, computed without overflow."""
    y_true, y_pred = float_pair(y_true, y_pred, "log_cosh")
    x = ops.subtract(y_pred, y_true)
    # log(cosh(x)) = x + log(1 + exp(-2x)) - log(2)
    return ops.mean(
        ops.subtract(ops.add(x, ops.softplus(ops.multiply(-2.0, x))), math.log(2.0)), axis=-1
    )


def cosine_similarity(y_true, y_pred, axis=-1):
    """Minus the cosine of the angle between `y_true` and `y_pred` along `axis`."""
    y_true, y_pred = float_pair(y_true, y_pred, "cosine_similarity")
    return ops.negative(ops.sum(ops.multiply(_unit(y_true, axis), _unit(y_pred, axis)), axis=axis))


def _unit(x, axis):
    """`x` divided by its L2 norm along `axis`, the squared norm floored at 1e-12."""
    squared_norm = ops.sum(ops.square(x), axis=axis, keepdims=True)
    return ops.multiply(x, ops.rsqrt(ops.maximum(squared_norm, 1e-12)))


class MeanSquaredError(BuiltinLoss):
    """The mean of squared errors: `mean((y_true - y_pred) ** 2)` over the last axis, reduced.

    `loss = MeanSquaredError()` then `loss(y_true, y_pred, sample_weight=None)`; in `compile`
    the names "mse" and "mean_squared_error" mean this loss.

    Args:
        reduction: how per-sample values become the result: "sum_over_batch_size" (default:
            the sum over the number of values), "sum", "mean_with_sample_weight" (the sum over
            the sum of the weights) or "none" (the per-sample values).
        name: str, the loss's name in logs.
        dtype: the dtype inputs are cast to and the loss computed in; default floatx.

    Examples:
        >>> loss = tripod.losses.MeanSquaredError()
        >>> float(loss(np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[1.0, 1.0], [1.0, 1.0]])))
        0.75
        >>> float(loss(np.zeros((2, 1)), np.ones((2, 1)), sample_weight=np.array([1.0, 0.0])))
        0.5
    """

    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, name=name, reduction=reduction, dtype=dtype)


class MeanAbsoluteError(BuiltinLoss):
    """The mean of absolute errors: `mean(|y_true - y_pred|)` over the last axis, reduced.

    In `compile` the names "mae" and "mean_absolute_error" mean this loss.

    Args:
        reduction: how per-sample values become the result: "sum_over_batch_size" (default:
            the sum over the number of values), "sum", "mean_with_sample_weight" (the sum over
            the sum of the weights) or "none" (the per-sample values).
        name: str, the loss's name in logs.
        dtype: the dtype inputs are cast to and the loss computed in; default floatx.

    Examples:
        >>> loss = tripod.losses.MeanAbsoluteError()
        >>> float(loss(np.array([[0.0, 1.0]]), np.array([[2.0, 0.0]])))
        1.5
    """

    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, name=name, reduction=reduction, dtype=dtype)


class MeanAbsolutePercentageError(BuiltinLoss):
    """The mean absolute percentage error (`mean_absolute_percentage_error`)."""

    def __init__(
        self, reduction="sum_over_batch_size", name="mean_absolute_percentage_error", dtype=None
    ):
        super().__init__(
            mean_absolute_percentage_error, name=name, reduction=reduction, dtype=dtype
        )


class MeanSquaredLogarithmicError(BuiltinLoss):
    """The mean squared logarithmic error (`mean_squared_logarithmic_error`)."""

    def __init__(
        self, reduction="sum_over_batch_size", name="mean_squared_logarithmic_error", dtype=None
    ):
        super().__init__(
            mean_squared_logarithmic_error, name=name, reduction=reduction, dtype=dtype
        )


class Huber(BuiltinLoss):
    """The Huber loss: quadratic for errors up to `delta`, linear beyond (`huber`)."""

    def __init__(self, delta=1.0, reduction="sum_over_batch_size", name="huber_loss", dtype=None):
        super().__init__(huber, name=name, reduction=reduction, dtype=dtype, delta=delta)


class LogCosh(BuiltinLoss):
    """The logarithm of the hyperbolic cosine of the error (`log_cosh`)."""

    def __init__(self, reduction="sum_over_batch_size", name="log_cosh", dtype=None):
        super().__init__(log_cosh, name=name, reduction=reduction, dtype=dtype)


class CosineSimilarity(BuiltinLoss):
    """Minus the cosine similarity between labels and predictions along `axis`."""

    def __init__(
        self, axis=-1, reduction="sum_over_batch_size", name="cosine_similarity", dtype=None
    ):
        super().__init__(cosine_similarity, name=name, reduction=reduction, dtype=dtype, axis=axis)
