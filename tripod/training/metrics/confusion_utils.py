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


def as_thresholds(thresholds, default, check_range=True):
    """(thresholds as a list of floats, whether the result is one number rather than a list).

    Given thresholds must lie in [0, 1] when `check_range`.
    """
    if thresholds is None:
        return [default], True
    if isinstance(thresholds, numbers.Real):
        values = [float(thresholds)]
    else:
        values = [float(t) for t in np.asarray(thresholds, dtype="float64").reshape(-1)]
    if not values:
        raise ValueError("thresholds must not be empty.")
    outside = [t for t in values if not 0.0 <= t <= 1.0]
    if check_range and outside:
        raise ValueError(f"Threshold values must be in [0, 1]. Received: {outside}")
    return values, len(values) == 1


def evenly_spaced(num_thresholds, low, high):
    """`num_thresholds` thresholds: `low`, the evenly spaced points inside (0, 1), `high`."""
    inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [low] + inner + [high]


def rate(hits, misses):
    """`hits / (hits + misses)`, 0 where both are 0 (recall, precision, specificity)."""
    return ops.divide_no_nan(hits, ops.add(hits, misses))


def keep_top_k(y_pred, k):
    """`y_pred` with every entry outside the `k` largest of its last axis set to NEG_INF."""
    _, indices = ops.top_k(y_pred, k, sorted=False)
    chosen = ops.sum(ops.one_hot(indices, y_pred.shape[-1], dtype="int32"), axis=-2)
    return ops.where(ops.greater(chosen, 0), y_pred, ops.full_like(y_pred, NEG_INF))


def _tally_compared(y_pred, values, thresholds, dtype):
    """(sums of `values` rows where y_pred > t, where y_pred <= t) for each threshold t."""
    limits = ops.convert_to_tensor(np.asarray(thresholds), dtype=dtype)
    limits = ops.reshape(limits, (-1,) + (1,) * len(y_pred.shape))
    above = ops.expand_dims(ops.cast(ops.greater(ops.expand_dims(y_pred, 0), limits), dtype), -1)
    values = ops.expand_dims(values, 0)
    return ops.sum(ops.multiply(above, values), axis=1), ops.sum(
        ops.multiply(ops.subtract(1.0, above), values), axis=1
    )


def _tally_bucketed(y_pred, values, thresholds, dtype):
    """`_tally_compared` for `evenly_spaced` thresholds in one pass: each prediction goes to the
    bucket counting the thresholds below it, and cumulative sums of the buckets give the tallies
    (memory linear in predictions plus thresholds, not their product)."""
    count = len(thresholds)
    inner = ops.clip(ops.subtract(ops.ceil(ops.multiply(y_pred, count - 1)), 1.0), 0.0, count - 2.0)
    below = ops.add(
        ops.add(inner, ops.cast(ops.greater(y_pred, thresholds[0]), dtype)),
        ops.cast(ops.greater(y_pred, thresholds[-1]), dtype),
    )
    bucket = ops.cast(below, "int32")
    labels = 1 if len(y_pred.shape) == 1 else y_pred.shape[-1]
    if labels > 1:
        bucket = ops.add(ops.multiply(bucket, labels), ops.arange(labels, dtype="int32"))
    sums = ops.segment_sum(
        ops.reshape(values, (-1, 2)), ops.reshape(bucket, (-1,)), num_segments=(count + 1) * labels
    )
    sums = ops.reshape(sums, (count + 1,) + tuple(values.shape[1:]))
    at_or_below = ops.cumsum(sums, axis=0)
    above = ops.flip(ops.cumsum(ops.flip(sums, axis=0), axis=0), axis=0)
    return above[1:], at_or_below[:-1]


def confusion_counts(
    y_true,
    y_pred,
    thresholds,
    sample_weight=None,
    top_k=None,
    class_id=None,
    label_weights=None,
    multi_label=False,
    evenly=False,
    dtype=None,
):
    """{kind: weighted count per threshold} for every kind in `KINDS`.

    `top_k` keeps only each sample's k highest predictions, `class_id` looks at one class,
    `label_weights` weighs the classes (last axis). Without `multi_label` every entry is one
    prediction (counts of shape (thresholds,)); with it, the last axis holds labels counted
    separately (counts of shape (thresholds, labels)). `evenly` says the thresholds came from
    `evenly_spaced`, which allows a faster count.
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
    positives = ops.where(y_true, weights, ops.zeros_like(weights))
    values = ops.stack([positives, ops.subtract(weights, positives)], axis=-1)
    tally = _tally_bucketed if evenly and len(thresholds) > 2 else _tally_compared
    above, at_or_below = tally(y_pred, values, thresholds, dtype)
    return {
        "true_positives": above[..., 0],
        "false_positives": above[..., 1],
        "true_negatives": at_or_below[..., 1],
        "false_negatives": at_or_below[..., 0],
    }
