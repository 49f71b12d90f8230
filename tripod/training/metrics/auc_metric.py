"""`AUC`: the area under the ROC, precision-recall or precision-recall-gain curve, from
confusion counts kept at a fixed set of thresholds (a Riemann sum over them)."""

import numpy as np

from tripod.backends import active, config
from tripod.training.metrics.confusion_metrics import CountingMetric
from tripod.training.metrics.confusion_utils import KINDS, as_thresholds, evenly_spaced, rate

ops = active()

_CURVES = ("PR", "ROC", "PRGAIN")
_SUMMATIONS = ("interpolation", "majoring", "minoring")


def _gains(tp, fp, tn, fn):
    """(recall gain, precision gain) of the PR-gain curve (Flach & Kull, 2015).

    With P positives and N negatives: `1 - (P / N) * (fn / tp)` and `1 - (P / N) * (fp / tp)`;
    negative recall gains (recall below the positive rate) count as 0; where tp = 0 the recall
    gain is 0 and the precision gain 1, as in Keras.
    """
    positives, negatives = ops.add(tp, fn), ops.add(fp, tn)
    scaled_tp = ops.multiply(tp, negatives)
    recall_gain = ops.divide_no_nan(ops.subtract(scaled_tp, ops.multiply(fn, positives)), scaled_tp)
    precision_gain = ops.subtract(1.0, ops.divide_no_nan(ops.multiply(fp, positives), scaled_tp))
    return ops.maximum(recall_gain, 0.0), precision_gain


def _riemann(x, y, method):
    """The area under the points (x decreasing along the first axis, y), per column."""
    left, right = y[:-1], y[1:]
    if method == "interpolation":
        heights = ops.divide(ops.add(left, right), 2.0)
    elif method == "minoring":
        heights = ops.minimum(left, right)
    else:
        heights = ops.maximum(left, right)
    return ops.sum(ops.multiply(ops.subtract(x[:-1], x[1:]), heights), axis=0)


def _interpolated_pr(tp, fp, fn):
    """The PR area with precision interpolated between thresholds (Davis & Goadrich, 2006).

    Between two thresholds, true positives are taken to grow linearly with predicted positives
    `p = tp + fp`: `tp = slope * p + intercept`, so precision is `slope + intercept / p` and the
    area of each piece integrates in closed form, a log term included.
    """
    predicted = ops.add(tp, fp)
    d_tp = ops.subtract(tp[:-1], tp[1:])
    d_predicted = ops.maximum(ops.subtract(predicted[:-1], predicted[1:]), 0.0)
    slope = ops.divide_no_nan(d_tp, d_predicted)
    intercept = ops.subtract(tp[1:], ops.multiply(slope, predicted[1:]))
    both = ops.logical_and(ops.greater(predicted[:-1], 0.0), ops.greater(predicted[1:], 0.0))
    ratio = ops.where(
        both,
        ops.divide_no_nan(predicted[:-1], ops.maximum(predicted[1:], 0.0)),
        ops.ones_like(d_tp),
    )
    piece = ops.multiply(slope, ops.add(d_tp, ops.multiply(intercept, ops.log(ratio))))
    return ops.sum(ops.divide_no_nan(piece, ops.maximum(ops.add(tp[1:], fn[1:]), 0.0)), axis=0)


class AUC(CountingMetric):
    """The area under the ROC (default), PR or PR-gain curve, approximated at thresholds.

    `num_thresholds` evenly spaced thresholds in [0, 1] (or the given `thresholds`, plus one
    just below 0 and one just above 1) discretize the curve; `summation_method` picks the
    heights: "interpolation" (trapezoids; exact interpolation for PR), "minoring" or
    "majoring". With `multi_label`, each label (last axis) has its own curve and the areas are
    averaged, weighted by `label_weights`; otherwise every entry is one prediction and
    `label_weights` weigh the labels' entries.
    """

    _kinds = KINDS

    def __init__(
        self,
        num_thresholds=200,
        curve="ROC",
        summation_method="interpolation",
        name=None,
        dtype=None,
        thresholds=None,
        multi_label=False,
        num_labels=None,
        label_weights=None,
        from_logits=False,
    ):
        super().__init__(dtype=dtype, name=name)
        curve = curve.upper() if isinstance(curve, str) else curve
        if curve not in _CURVES:
            raise ValueError(
                f'Invalid AUC curve value: "{curve}". Expected values are {list(_CURVES)}.'
            )
        if summation_method not in _SUMMATIONS:
            raise ValueError(
                f'Invalid AUC summation method value: "{summation_method}". Expected values are {list(_SUMMATIONS)}.'
            )
        if thresholds is not None:
            inner = sorted(as_thresholds(thresholds, None, check_range=False)[0])
            num_thresholds = len(inner) + 2
            self.thresholds = [0.0 - config.epsilon()] + inner + [1.0 + config.epsilon()]
        else:
            if not isinstance(num_thresholds, int) or num_thresholds <= 1:
                raise ValueError(
                    f"Argument `num_thresholds` must be an integer > 1. Received: num_thresholds={num_thresholds!r}"
                )
            inner = None
            self.thresholds = evenly_spaced(
                num_thresholds, 0.0 - config.epsilon(), 1.0 + config.epsilon()
            )
        self._init_thresholds = inner
        self.num_thresholds = num_thresholds
        self.curve = curve
        self.summation_method = summation_method
        self.multi_label = bool(multi_label)
        self.num_labels = num_labels
        self.label_weights = (
            None
            if label_weights is None
            else [float(w) for w in np.asarray(label_weights).reshape(-1)]
        )
        self.from_logits = from_logits
        if not self.multi_label:
            self._add_counts((num_thresholds,))
        elif num_labels is not None:
            self._add_counts((num_thresholds, num_labels))
        else:
            self.built = False

    def build(self, y_true_shape, y_pred_shape):
        if len(y_pred_shape) != 2 or y_pred_shape[-1] is None:
            raise ValueError(
                f"AUC(multi_label=True) expects predictions of shape (batch_size, num_labels); received {y_pred_shape}."
            )
        self.num_labels = y_pred_shape[-1]
        self._add_counts((self.num_thresholds, self.num_labels))
        self.built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        self._ensure_built(ops.convert_to_tensor(y_true), ops.convert_to_tensor(y_pred))
        if self.from_logits:
            y_pred = ops.sigmoid(y_pred)
        label_weights = None if self.multi_label else self.label_weights
        self._accumulate(
            y_true,
            y_pred,
            sample_weight,
            label_weights=label_weights,
            multi_label=self.multi_label,
            evenly=self._init_thresholds is None,
        )

    def _area(self, tp, fp, tn, fn):
        if self.curve == "PR" and self.summation_method == "interpolation":
            return _interpolated_pr(tp, fp, fn)
        if self.curve == "ROC":
            x, y = rate(fp, tn), rate(tp, fn)
        elif self.curve == "PR":
            x, y = rate(tp, fn), rate(tp, fp)
        else:
            x, y = _gains(tp, fp, tn, fn)
        return _riemann(x, y, self.summation_method)

    def result(self):
        area = self._area(*self._counts())
        if not self.multi_label:
            return area
        if self.label_weights is None:
            return ops.mean(area)
        weights = ops.convert_to_tensor(np.asarray(self.label_weights, dtype=self.dtype))
        return ops.divide_no_nan(ops.sum(ops.multiply(area, weights)), ops.sum(weights))

    def get_config(self):
        config = {
            **super().get_config(),
            "num_thresholds": self.num_thresholds,
            "curve": self.curve,
            "summation_method": self.summation_method,
            "multi_label": self.multi_label,
            "num_labels": self.num_labels,
            "label_weights": self.label_weights,
            "from_logits": self.from_logits,
        }
        if self._init_thresholds is not None:
            config["thresholds"] = self._init_thresholds
        return config
