"""Regression metrics: errors, cosine similarity, correlations and the R² score."""

from tripod.backends import active
from tripod.training import losses
from tripod.training.losses.loss import float_pair
from tripod.training.metrics.metric import Metric
from tripod.training.metrics.reduction_metrics import BuiltinMeanMetric, Mean
from tripod.training.metrics.shapes import broadcast_weights

ops = active()


def cosine_similarity(y_true, y_pred, axis=-1):
    """The cosine of the angle between label and prediction vectors (0 for a zero vector)."""
    y_true, y_pred = float_pair(y_true, y_pred, "cosine_similarity")
    y_true = ops.normalize(y_true, axis=axis, order=2)
    y_pred = ops.normalize(y_pred, axis=axis, order=2)
    return ops.sum(ops.multiply(y_true, y_pred), axis=axis)


def _centered(x, axis):
    return ops.subtract(x, ops.mean(x, axis=axis, keepdims=True))


def pearson_correlation(y_true, y_pred, axis=-1):
    """Pearson's correlation coefficient along `axis`, per sample."""
    y_true, y_pred = float_pair(y_true, y_pred, "pearson_correlation")
    covariance = ops.mean(ops.multiply(_centered(y_true, axis), _centered(y_pred, axis)), axis=axis)
    return ops.divide(
        covariance, ops.multiply(ops.std(y_true, axis=axis), ops.std(y_pred, axis=axis))
    )


def concordance_correlation(y_true, y_pred, axis=-1):
    """Lin's concordance correlation coefficient along `axis`, per sample (0 when undefined)."""
    y_true, y_pred = float_pair(y_true, y_pred, "concordance_correlation")
    covariance = ops.mean(ops.multiply(_centered(y_true, axis), _centered(y_pred, axis)), axis=axis)
    gap = ops.subtract(ops.mean(y_true, axis=axis), ops.mean(y_pred, axis=axis))
    spread = ops.add(
        ops.add(ops.var(y_true, axis=axis), ops.var(y_pred, axis=axis)), ops.square(gap)
    )
    return ops.divide_no_nan(ops.multiply(covariance, 2.0), spread)


class MeanSquaredError(BuiltinMeanMetric):
    """The mean of squared differences between labels and predictions, over every batch seen.

    Args:
        name: str, the metric's name in logs (default "mean_squared_error").
        dtype: the dtype of the metric's state and result; default floatx.

    Examples:
        >>> metric = tripod.metrics.MeanSquaredError()
        >>> metric.update_state(np.array([[0.0, 1.0]]), np.array([[1.0, 1.0]]))
        >>> metric.update_state(np.array([[0.0, 0.0]]), np.array([[2.0, 2.0]]))
        >>> float(metric.result())
        2.25
    """

    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(losses.mean_squared_error, name=name, dtype=dtype)


class MeanAbsoluteError(BuiltinMeanMetric):
    """The mean of absolute differences between labels and predictions, over every batch seen.

    Args:
        name: str, the metric's name in logs (default "mean_absolute_error").
        dtype: the dtype of the metric's state and result; default floatx.

    Examples:
        >>> metric = tripod.metrics.MeanAbsoluteError()
        >>> metric.update_state(np.array([[0.0, 1.0]]), np.array([[2.0, 0.0]]))
        >>> float(metric.result())
        1.5
    """

    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(losses.mean_absolute_error, name=name, dtype=dtype)


class MeanAbsolutePercentageError(BuiltinMeanMetric):
    """The mean absolute difference as a percentage of the label."""

    def __init__(self, name="mean_absolute_percentage_error", dtype=None):
        super().__init__(losses.mean_absolute_percentage_error, name=name, dtype=dtype)


class MeanSquaredLogarithmicError(BuiltinMeanMetric):
    """The mean squared difference of `log(1 + x)` of labels and predictions."""

    def __init__(self, name="mean_squared_logarithmic_error", dtype=None):
        super().__init__(losses.mean_squared_logarithmic_error, name=name, dtype=dtype)


class LogCoshError(BuiltinMeanMetric):
    """The mean of `log(cosh(prediction - label))`."""

    def __init__(self, name="logcosh", dtype=None):
        super().__init__(losses.log_cosh, name=name, dtype=dtype)


class CosineSimilarity(BuiltinMeanMetric):
    """The mean cosine similarity between label and prediction vectors along `axis`."""

    def __init__(self, name="cosine_similarity", dtype=None, axis=-1):
        super().__init__(cosine_similarity, name=name, dtype=dtype, axis=axis)


class PearsonCorrelation(BuiltinMeanMetric):
    """The mean per-sample Pearson correlation along `axis`."""

    def __init__(self, name="pearson_correlation", dtype=None, axis=-1):
        super().__init__(pearson_correlation, name=name, dtype=dtype, axis=axis)


class ConcordanceCorrelation(BuiltinMeanMetric):
    """The mean per-sample concordance correlation along `axis`."""

    def __init__(self, name="concordance_correlation", dtype=None, axis=-1):
        super().__init__(concordance_correlation, name=name, dtype=dtype, axis=axis)


class RootMeanSquaredError(Mean):
    """The square root of the mean squared error."""

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = float_pair(y_true, y_pred, self.name)
        super().update_state(ops.square(ops.subtract(y_pred, y_true)), sample_weight=sample_weight)

    def result(self):
        return ops.sqrt(super().result())


class R2Score(Metric):
    """The coefficient of determination of (batch, outputs) regressions.

    `class_aggregation` combines the outputs' scores: "uniform_average", "variance_weighted_average"
    or None (one score per output); `num_regressors` > 0 gives the adjusted R².
    """

    _AGGREGATIONS = (None, "uniform_average", "variance_weighted_average")

    def __init__(
        self, class_aggregation="uniform_average", num_regressors=0, name="r2_score", dtype=None
    ):
        super().__init__(dtype=dtype, name=name)
        if class_aggregation not in self._AGGREGATIONS:
            raise ValueError(
                f"R2Score: class_aggregation must be one of {self._AGGREGATIONS}, "
                f"received {class_aggregation!r}."
            )
        if (
            not isinstance(num_regressors, int)
            or isinstance(num_regressors, bool)
            or num_regressors < 0
        ):
            raise ValueError(
                f"R2Score: num_regressors must be an int >= 0, received {num_regressors!r}."
            )
        self.class_aggregation = class_aggregation
        self.num_regressors = num_regressors
        self.num_samples = self.add_variable((), "zeros", name="num_samples")
        self.built = False

    def build(self, y_true_shape, y_pred_shape):
        if len(y_true_shape) != 2 or len(y_pred_shape) != 2:
            raise ValueError(
                "R2Score expects 2D inputs of shape (batch_size, output_dim); received "
                f"y_true.shape={y_true_shape} and y_pred.shape={y_pred_shape}."
            )
        if y_true_shape[-1] is None or y_pred_shape[-1] is None:
            raise ValueError(
                "R2Score needs a known last dimension (output_dim) of y_true and y_pred."
            )
        outputs = (y_true_shape[-1],)
        self.squared_sum = self.add_variable(outputs, "zeros", name="squared_sum")
        self.sum = self.add_variable(outputs, "zeros", name="sum")
        self.total_mse = self.add_variable(outputs, "zeros", name="residual")
        self.count = self.add_variable(outputs, "zeros", name="count")
        self.built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = ops.cast(y_true, self.dtype)
        y_pred = ops.cast(y_pred, self.dtype)
        self._ensure_built(y_true, y_pred)
        weights = broadcast_weights(sample_weight, y_true, self.dtype)
        weighted = ops.multiply(y_true, weights)
        self.squared_sum.assign_add(ops.sum(ops.multiply(y_true, weighted), axis=0))
        self.sum.assign_add(ops.sum(weighted, axis=0))
        residual = ops.multiply(ops.square(ops.subtract(y_true, y_pred)), weights)
        self.total_mse.assign_add(ops.sum(residual, axis=0))
        self.count.assign_add(ops.sum(weights, axis=0))
        self.num_samples.assign_add(ops.cast(ops.size(y_true), self.dtype))

    def result(self):
        """The (adjusted) R²; `num_samples` counts entries (batch * outputs), as in Keras."""
        total = ops.subtract(
            self.squared_sum, ops.multiply(self.sum, ops.divide(self.sum, self.count))
        )
        scores = ops.subtract(1.0, ops.divide(self.total_mse, total))
        scores = ops.where(ops.isinf(scores), ops.zeros_like(scores), scores)
        if self.class_aggregation == "uniform_average":
            scores = ops.mean(scores)
        elif self.class_aggregation == "variance_weighted_average":
            scores = ops.divide(ops.sum(ops.multiply(total, scores)), ops.sum(total))
        if self.num_regressors == 0:
            return scores
        n = ops.convert_to_tensor(self.num_samples)
        dof = ops.subtract(ops.subtract(n, self.num_regressors), 1.0)
        adjusted = ops.subtract(
            1.0, ops.multiply(ops.subtract(1.0, scores), ops.divide(ops.subtract(n, 1.0), dof))
        )
        return ops.where(ops.greater(dof, 0.0), adjusted, scores)

    def get_config(self):
        return {
            **super().get_config(),
            "class_aggregation": self.class_aggregation,
            "num_regressors": self.num_regressors,
        }
