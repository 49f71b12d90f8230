"""Weighted confusion counts at a set of thresholds, shared by the confusion-matrix metrics.

A prediction counts as positive at threshold `t` when it is strictly above `t`; a label is
positive when nonzero. Counts have one entry per threshold (and per label for multi-label AUC).
"""

import numbers

import numpy as np

from tripod.backends import active, config
from tripod.training.losses.loss import match_ranks
from tripod.training.metrics.shapes import broadcast_weights

ops = active()

#: The score given to predictions `top_k` filters out: below every threshold.
NEG_INF = -1e10

KINDS = ("true_positives", "false_positives", "true_negatives", "false_negatives")


def as_thresholds(thresholds, default):
    """(thresholds as a list of floats, whether the result is one number rather than a list)."""
    if thresholds is None:
        return [default], True
    if isinstance(thresholds, numbers.Real):
        values = [float(thresholds)]
    else:
        values = [float(t) for t in np.asarray(thresholds, dtype="float64").reshape(-1)]
    if not values:
        raise ValueError("thresholds must not be empty.")
    return values, len(values) == 1


def evenly_spaced(num_thresholds, low, high):
    """`num_thresholds` thresholds: `low`, the evenly spaced points inside (0, 1), `high`."""
    inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [low] + inner + [high]


def keep_top_k(y_pred, k):
    """`y_pred` with every entry outside the `k` largest of its last axis set to NEG_INF."""
    _, indices = ops.top_k(y_pred, k, sorted=False)
    chosen = ops.sum(ops.one_hot(indices, y_pred.shape[-1], dtype="int32"), axis=-2)
    return ops.where(ops.greater(chosen, 0), y_pred, ops.full_like(y_pred, NEG_INF))


def confusion_counts(y_true, y_pred, thresholds, kinds=KINDS, sample_weight=None, top_k=None,
                     class_id=None, label_weights=None, multi_label=False, dtype=None):  # fmt: skip
    """{kind: weighted count per threshold} for `kinds` among `KINDS`.

    `top_k` keeps only each sample's k highest predictions, `class_id` looks at one class,
    `label_weights` weighs the classes (last axis). Without `multi_label` every entry is one
    prediction (counts of shape (thresholds,)); with it, the last axis holds labels counted
    separately (counts of shape (thresholds, labels)).
    """
    dtype = dtype or config.floatx()
    y_pred = ops.cast(y_pred, dtype)
    y_true = ops.cast(y_true, "bool")
    y_true, y_pred = match_ranks(y_true, y_pred)
    weights = broadcast_weights(sample_weight, y_pred, dtype)
    if top_k is not None:
        y_pred = keep_top_k(y_pred, top_k)
    if class_id is not None:
        y_true, y_pred, weights = (
            y_true[..., class_id],
            y_pred[..., class_id],
            weights[..., class_id],
        )
    if label_weights is not None:
        weights = ops.multiply(weights, ops.cast(label_weights, dtype))
    flat_shape = (-1, y_pred.shape[-1]) if multi_label else (-1,)
    y_true, y_pred, weights = (ops.reshape(x, flat_shape) for x in (y_true, y_pred, weights))
    limits = ops.reshape(
        ops.convert_to_tensor(np.asarray(thresholds, dtype=dtype)), (-1,) + (1,) * len(flat_shape)
    )
    above = ops.cast(ops.greater(ops.expand_dims(y_pred, 0), limits), dtype)
    positives = ops.expand_dims(ops.where(y_true, weights, ops.zeros_like(weights)), 0)
    negatives = ops.subtract(ops.expand_dims(weights, 0), positives)
    counts = {}
    for kind in kinds:
        predicted = (
            above if kind in ("true_positives", "false_positives") else ops.subtract(1.0, above)
        )
        actual = positives if kind in ("true_positives", "false_negatives") else negatives
        counts[kind] = ops.sum(ops.multiply(predicted, actual), axis=1)
    return counts
