"""F-scores of multi-class (or multi-label) predictions: `FBetaScore` and `F1Score`."""

from tripod.backends import active
from tripod.training.metrics.metric import Metric
from tripod.training.metrics.shapes import broadcast_weights

ops = active()

_AVERAGES = (None, "micro", "macro", "weighted")


class FBetaScore(Metric):
    """The F-beta score `(1 + beta²) * precision * recall / (beta² * precision + recall)`.

    Inputs are (batch, classes). Predictions count as positive above `threshold`; without one,
    each sample's highest (nonzero) prediction does. `average`: None (one score per class),
    "micro" (from counts pooled over classes), "macro" (mean of class scores) or "weighted"
    (class scores weighted by each class's weighted number of positive labels).
    """

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        super().__init__(dtype=dtype, name=name)
        if average not in _AVERAGES:
            raise ValueError(
                f"Invalid `average` argument value. Expected one of: {set(_AVERAGES)}. Received: average={average}"
            )
        if not isinstance(beta, float):  # Keras raises ValueError here too
            raise ValueError(  # noqa: TRY004
                f"Invalid `beta` argument value. It should be a Python float. Received: beta={beta!r} of type {type(beta)}"
            )
        if beta <= 0.0:
            raise ValueError(
                f"Invalid `beta` argument value. It should be > 0. Received: beta={beta}"
            )
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError(
                    "Invalid `threshold` argument value. It should be a Python float. "
                    f"Received: threshold={threshold!r} of type {type(threshold)}"
                )
            if not 0.0 < threshold <= 1.0:
                raise ValueError(
                    "Invalid `threshold` argument value. It should verify 0 < threshold <= 1. "
                    f"Received: threshold={threshold}"
                )
        self.average = average
        self.beta = beta
        self.threshold = threshold
        self.built = False

    def build(self, y_true_shape, y_pred_shape):
        if len(y_pred_shape) != 2 or len(y_true_shape) != 2 or y_pred_shape[-1] is None:
            raise ValueError(
                f"{type(self).__name__} expects 2D inputs of shape (batch_size, num_classes); received "
                f"y_true.shape={y_true_shape} and y_pred.shape={y_pred_shape}."
            )
        shape = () if self.average == "micro" else (y_pred_shape[-1],)
        for name in (
            "true_positives",
            "false_positives",
            "false_negatives",
            "intermediate_weights",
        ):
            setattr(self, name, self.add_variable(shape, "zeros", name=name))
        self.built = True

    def _predicted(self, y_pred):
        """1 where a prediction counts as positive, else 0."""
        if self.threshold is None:
            top = ops.max(y_pred, axis=-1, keepdims=True)
            chosen = ops.logical_and(
                ops.greater_equal(y_pred, top), ops.greater(ops.abs(y_pred), 1e-9)
            )
        else:
            chosen = ops.greater(y_pred, self.threshold)
        return ops.cast(chosen, self.dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = ops.cast(y_true, self.dtype)
        y_pred = ops.cast(y_pred, self.dtype)
        self._ensure_built(y_true, y_pred)
        predicted = self._predicted(y_pred)
        weights = broadcast_weights(sample_weight, y_true, self.dtype)
        axis = None if self.average == "micro" else 0
        positives = ops.multiply(y_true, weights)
        negatives = ops.multiply(ops.subtract(1.0, y_true), weights)
        self.true_positives.assign_add(ops.sum(ops.multiply(predicted, positives), axis=axis))
        self.false_positives.assign_add(ops.sum(ops.multiply(predicted, negatives), axis=axis))
        self.false_negatives.assign_add(
            ops.sum(ops.multiply(ops.subtract(1.0, predicted), positives), axis=axis)
        )
        self.intermediate_weights.assign_add(ops.sum(positives, axis=axis))

    def result(self):
        tp = ops.convert_to_tensor(self.true_positives)
        precision = ops.divide_no_nan(tp, ops.add(tp, self.false_positives))
        recall = ops.divide_no_nan(tp, ops.add(tp, self.false_negatives))
        beta2 = self.beta**2
        both = ops.multiply(precision, recall)
        blend = ops.add(ops.multiply(precision, beta2), recall)
        scores = ops.multiply(ops.divide_no_nan(both, blend), 1.0 + beta2)
        if self.average == "weighted":
            weights = ops.convert_to_tensor(self.intermediate_weights)
            return ops.sum(ops.multiply(scores, ops.divide_no_nan(weights, ops.sum(weights))))
        if self.average == "macro":
            return ops.mean(scores)
        return scores

    def get_config(self):
        return {
            **super().get_config(),
            "average": self.average,
            "beta": self.beta,
            "threshold": self.threshold,
        }


class F1Score(FBetaScore):
    """The F1 score, the harmonic mean of precision and recall (FBetaScore with beta=1)."""

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]
        return config
