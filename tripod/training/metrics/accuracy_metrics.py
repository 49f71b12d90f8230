"""Accuracy metrics: how often predictions match labels, as per-sample functions and metrics."""

from tripod.backends import active, config
from tripod.training.losses.loss import match_ranks
from tripod.training.metrics.reduction_metrics import BuiltinMeanMetric

ops = active()


def _hits(matches):
    """Booleans as floatx ones and zeros."""
    return ops.cast(matches, config.floatx())


def _sparse_labels(y_true, y_pred):
    """Integer class labels, with a trailing size-1 axis dropped when `y_true` has one."""
    y_true = ops.convert_to_tensor(y_true)
    if len(y_true.shape) == len(y_pred.shape) and y_true.shape[-1] == 1:
        y_true = ops.squeeze(y_true, axis=-1)
    return ops.cast(y_true, "int32")


def _class_labels(y_true, y_pred):
    """Integer class labels from one-hot `y_true` (or labels, when it has one axis less)."""
    y_true = ops.convert_to_tensor(y_true)
    if len(y_true.shape) == len(y_pred.shape):
        return ops.argmax(y_true, axis=-1)
    return ops.cast(y_true, "int32")


def accuracy(y_true, y_pred):
    """1 where the prediction equals the label exactly, else 0."""
    y_true, y_pred = match_ranks(ops.convert_to_tensor(y_true), ops.convert_to_tensor(y_pred))
    return _hits(ops.equal(y_true, y_pred))


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """1 where `y_pred > threshold` agrees with the binary label, else 0."""
    y_true, y_pred = match_ranks(ops.convert_to_tensor(y_true), ops.convert_to_tensor(y_pred))
    predicted = ops.cast(ops.greater(y_pred, threshold), ops.dtype(y_true))
    return _hits(ops.equal(y_true, predicted))


def categorical_accuracy(y_true, y_pred):
    """1 where the most likely class is the one-hot label's class, else 0."""
    y_pred = ops.convert_to_tensor(y_pred)
    labels = _class_labels(y_true, y_pred)
    return _hits(ops.equal(labels, ops.argmax(y_pred, axis=-1)))


def sparse_categorical_accuracy(y_true, y_pred):
    """1 where the most likely class is the integer label, else 0."""
    y_pred = ops.convert_to_tensor(y_pred)
    labels = _sparse_labels(y_true, y_pred)
    return _hits(ops.equal(labels, ops.argmax(y_pred, axis=-1)))


def _in_top_k(labels, y_pred, k):
    """Whether each label is among the `k` highest predictions (ties count as in), any rank."""
    if len(y_pred.shape) == 2:
        return ops.in_top_k(labels, y_pred, k)
    flat = ops.in_top_k(ops.reshape(labels, (-1,)), ops.reshape(y_pred, (-1, y_pred.shape[-1])), k)
    return ops.reshape(flat, ops.shape(labels))


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1 where the one-hot label's class is among the `k` highest predictions, else 0."""
    y_pred = ops.convert_to_tensor(y_pred)
    return _hits(_in_top_k(_class_labels(y_true, y_pred), y_pred, k))


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5, from_sorted_ids=False):
    """1 where the integer label is among the `k` highest predictions, else 0.

    With `from_sorted_ids`, `y_pred` already holds class ids, best first (e.g. from `top_k`).
    """
    y_pred = ops.convert_to_tensor(y_pred)
    labels = _sparse_labels(y_true, y_pred)
    if from_sorted_ids:
        best = ops.cast(y_pred[..., :k], "int32")
        return _hits(ops.any(ops.equal(best, ops.expand_dims(labels, -1)), axis=-1))
    return _hits(_in_top_k(labels, y_pred, k))


class Accuracy(BuiltinMeanMetric):
    """How often predictions equal labels exactly (for already-decided predictions).

    For class probabilities use `CategoricalAccuracy`, `SparseCategoricalAccuracy` or
    `BinaryAccuracy`; `compile(metrics=["accuracy"])` picks the right one from the loss.

    Args:
        name: str, the metric's name in logs (default "accuracy").
        dtype: the dtype of the metric's state and result; default floatx.

    Examples:
        >>> metric = tripod.metrics.Accuracy()
        >>> metric.update_state(np.array([1, 2, 3, 4]), np.array([1, 2, 0, 4]))
        >>> float(metric.result())
        0.75
    """

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name=name, dtype=dtype)


class BinaryAccuracy(BuiltinMeanMetric):
    """How often `y_pred > threshold` matches binary labels.

    Args:
        name: str, the metric's name in logs (default "binary_accuracy").
        dtype: the dtype of the metric's state and result; default floatx.
        threshold: float, predictions above it count as 1 (default 0.5).

    Examples:
        >>> metric = tripod.metrics.BinaryAccuracy()
        >>> metric.update_state(np.array([[1.0], [0.0], [1.0]]), np.array([[0.8], [0.6], [0.3]]))
        >>> print(round(float(metric.result()), 4))
        0.3333
    """

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name=name, dtype=dtype, threshold=threshold)


class CategoricalAccuracy(BuiltinMeanMetric):
    """How often the most likely class matches one-hot labels.

    Args:
        name: str, the metric's name in logs (default "categorical_accuracy").
        dtype: the dtype of the metric's state and result; default floatx.

    Examples:
        >>> metric = tripod.metrics.CategoricalAccuracy()
        >>> y_true = np.array([[0.0, 1.0], [1.0, 0.0]])
        >>> metric.update_state(y_true, np.array([[0.3, 0.7], [0.4, 0.6]]))
        >>> float(metric.result())
        0.5
    """

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name=name, dtype=dtype)


class SparseCategoricalAccuracy(BuiltinMeanMetric):
    """How often the most likely class matches integer labels.

    Labels may have shape `(batch,)` or `(batch, 1)`; predictions `(batch, classes)`.

    Args:
        name: str, the metric's name in logs (default "sparse_categorical_accuracy").
        dtype: the dtype of the metric's state and result; default floatx.

    Examples:
        >>> metric = tripod.metrics.SparseCategoricalAccuracy()
        >>> metric.update_state(np.array([1, 0]), np.array([[0.3, 0.7], [0.4, 0.6]]))
        >>> float(metric.result())
        0.5
    """

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name=name, dtype=dtype)


class TopKCategoricalAccuracy(BuiltinMeanMetric):
    """How often one-hot labels are among the top `k` predictions."""

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name=name, dtype=dtype, k=k)


class SparseTopKCategoricalAccuracy(BuiltinMeanMetric):
    """How often integer labels are among the top `k` predictions (or the first `k` sorted ids)."""

    def __init__(
        self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None, from_sorted_ids=False
    ):
        super().__init__(
            sparse_top_k_categorical_accuracy,
            name=name,
            dtype=dtype,
            k=k,
            from_sorted_ids=from_sorted_ids,
        )
