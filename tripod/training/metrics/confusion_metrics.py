"""Confusion-matrix metrics: counts, precision and recall at thresholds, and one rate at the
best threshold meeting a constraint on another (e.g. precision at 80% recall)."""

import numbers

from tripod.backends import active
from tripod.training.metrics.confusion_utils import (
    KINDS,
    NEG_INF,
    as_thresholds,
    confusion_counts,
    evenly_spaced,
    rate,
)
from tripod.training.metrics.metric import Metric

ops = active()


def _config_thresholds(thresholds):
    """Thresholds as given, in JSON-ready form (None, a float or a list of floats)."""
    if thresholds is None or isinstance(thresholds, numbers.Real):
        return thresholds
    return as_thresholds(thresholds, None)[0]


class CountingMetric(Metric):
    """State: weighted counts of the `_kinds` of outcome at each of `self.thresholds`."""

    _kinds = ()

    def _add_counts(self, shape):
        for kind in self._kinds:
            setattr(self, kind, self.add_variable(shape, "zeros", name=kind))

    def _accumulate(self, y_true, y_pred, sample_weight, **options):
        counts = confusion_counts(
            y_true, y_pred, self.thresholds, sample_weight, dtype=self.dtype, **options
        )
        for kind in self._kinds:
            getattr(self, kind).assign_add(counts[kind])

    def _counts(self):
        return [ops.convert_to_tensor(getattr(self, kind)) for kind in self._kinds]


class _ThresholdCount(Metric):
    """The weighted count of one outcome at each threshold (0.5 unless given)."""

    _kind = None

    def __init__(self, thresholds=None, name=None, dtype=None):
        super().__init__(dtype=dtype, name=name)
        self.init_thresholds = _config_thresholds(thresholds)
        self.thresholds, self._single = as_thresholds(thresholds, 0.5)
        self.accumulator = self.add_variable((len(self.thresholds),), "zeros", name="accumulator")

    def update_state(self, y_true, y_pred, sample_weight=None):
        counts = confusion_counts(y_true, y_pred, self.thresholds, sample_weight, dtype=self.dtype)
        self.accumulator.assign_add(counts[self._kind])

    def result(self):
        value = ops.convert_to_tensor(self.accumulator)
        return value[0] if self._single else value

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds}


class TruePositives(_ThresholdCount):
    """The weighted number of positive labels predicted above the threshold."""

    _kind = "true_positives"


class FalsePositives(_ThresholdCount):
    """The weighted number of negative labels predicted above the threshold."""

    _kind = "false_positives"


class TrueNegatives(_ThresholdCount):
    """The weighted number of negative labels predicted at or below the threshold."""

    _kind = "true_negatives"


class FalseNegatives(_ThresholdCount):
    """The weighted number of positive labels predicted at or below the threshold."""

    _kind = "false_negatives"


class _TruePositiveRatio(CountingMetric):
    """`tp / (tp + <other count>)` at each threshold; `top_k` and `class_id` select predictions."""

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(dtype=dtype, name=name)
        self.init_thresholds = _config_thresholds(thresholds)
        self.top_k = top_k
        self.class_id = class_id
        self.thresholds, self._single = as_thresholds(thresholds, 0.5 if top_k is None else NEG_INF)
        self._add_counts((len(self.thresholds),))

    def update_state(self, y_true, y_pred, sample_weight=None):
        self._accumulate(y_true, y_pred, sample_weight, top_k=self.top_k, class_id=self.class_id)

    def result(self):
        value = rate(*self._counts())
        return value[0] if self._single else value

    def get_config(self):
        return {
            **super().get_config(),
            "thresholds": self.init_thresholds,
            "top_k": self.top_k,
            "class_id": self.class_id,
        }


class Precision(_TruePositiveRatio):
    """The fraction of predicted positives that are positive: `tp / (tp + fp)`.

    With `top_k`, only each sample's k highest predictions count (as positives unless a
    threshold is given); `class_id` restricts the metric to one class.
    """

    _kinds = ("true_positives", "false_positives")


class Recall(_TruePositiveRatio):
    """The fraction of positives predicted positive: `tp / (tp + fn)`."""

    _kinds = ("true_positives", "false_negatives")


#: Rates from the counts (tp, fp, tn, fn).
_RATES = {
    "precision": lambda tp, fp, tn, fn: rate(tp, fp),
    "recall": lambda tp, fp, tn, fn: rate(tp, fn),
    "sensitivity": lambda tp, fp, tn, fn: rate(tp, fn),
    "specificity": lambda tp, fp, tn, fn: rate(tn, fp),
}


class _AtConstraint(CountingMetric):
    """The best `_maximized` rate over thresholds where the `_constraint` rate reaches `value`
    (0 when no threshold does); `_constraint` is also the config key of `value`."""

    _kinds = KINDS
    _constraint = _maximized = None

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(dtype=dtype, name=name)
        if not isinstance(value, numbers.Real) or not 0 <= value <= 1:
            raise ValueError(
                f"Argument `{self._constraint}` must be in the range [0, 1]. Received: {value!r}"
            )
        if not isinstance(num_thresholds, int) or num_thresholds <= 0:
            raise ValueError(
                f"Argument `num_thresholds` must be an integer > 0. Received: {num_thresholds!r}"
            )
        self.value = value
        self.num_thresholds = num_thresholds
        self.class_id = class_id
        self.thresholds = [0.5] if num_thresholds == 1 else evenly_spaced(num_thresholds, 0.0, 1.0)
        self._add_counts((num_thresholds,))

    def update_state(self, y_true, y_pred, sample_weight=None):
        self._accumulate(y_true, y_pred, sample_weight, class_id=self.class_id, evenly=True)

    def result(self):
        counts = self._counts()
        constrained, maximized = _RATES[self._constraint](*counts), _RATES[self._maximized](*counts)
        feasible = ops.greater_equal(constrained, self.value)
        return ops.max(ops.where(feasible, maximized, ops.zeros_like(maximized)))

    def get_config(self):
        return {
            **super().get_config(),
            "class_id": self.class_id,
            "num_thresholds": self.num_thresholds,
            self._constraint: self.value,
        }


class SensitivityAtSpecificity(_AtConstraint):
    """The best sensitivity (recall) where specificity is at least `specificity`."""

    _constraint, _maximized = "specificity", "sensitivity"

    def __init__(self, specificity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(
            value=specificity,
            num_thresholds=num_thresholds,
            class_id=class_id,
            name=name,
            dtype=dtype,
        )


class SpecificityAtSensitivity(_AtConstraint):
    """The best specificity where sensitivity (recall) is at least `sensitivity`."""

    _constraint, _maximized = "sensitivity", "specificity"

    def __init__(self, sensitivity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(
            value=sensitivity,
            num_thresholds=num_thresholds,
            class_id=class_id,
            name=name,
            dtype=dtype,
        )


class PrecisionAtRecall(_AtConstraint):
    """The best precision where recall is at least `recall`."""

    _constraint, _maximized = "recall", "precision"

    def __init__(self, recall, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(
            value=recall, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype
        )


class RecallAtPrecision(_AtConstraint):
    """The best recall where precision is at least `precision`."""

    _constraint, _maximized = "precision", "recall"

    def __init__(self, precision, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(
            value=precision,
            num_thresholds=num_thresholds,
            class_id=class_id,
            name=name,
            dtype=dtype,
        )
