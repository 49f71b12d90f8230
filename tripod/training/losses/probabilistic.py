"""Probabilistic losses: binary, categorical and sparse cross-entropies (plain and focal), the
generalized cross-entropy, Kullback-Leibler divergence and Poisson."""

from tripod.backends import active, config
from tripod.training.losses.loss import BuiltinLoss, as_float, check_fraction, float_pair

ops = active()


def _check_axis(owner, axis):
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise ValueError(f"{owner}: axis must be an int, received {axis!r}.")  # noqa: TRY004 (as Keras)


def _smooth(y_true, label_smoothing, classes):
    """`y_true` moved towards the uniform distribution over `classes` by `label_smoothing`."""
    if not label_smoothing:
        return y_true
    return ops.add(ops.multiply(y_true, 1.0 - label_smoothing), label_smoothing / classes)


def sparse_labels(y_true, y_pred):
    """Integer class labels, a trailing size-1 axis dropped when they have `y_pred`'s rank."""
    y_true = ops.convert_to_tensor(y_true)
    if len(ops.shape(y_true)) == len(ops.shape(y_pred)) and ops.shape(y_true)[-1] == 1:
        y_true = ops.squeeze(y_true, -1)
    return ops.cast(y_true, "int32")


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Cross-entropy of independent binary labels, averaged over `axis`."""
    y_true, y_pred = float_pair(y_true, y_pred, "binary_crossentropy")
    y_true = _smooth(y_true, label_smoothing, 2)
    return ops.mean(ops.binary_crossentropy(y_true, y_pred, from_logits=from_logits), axis=axis)


def binary_focal_crossentropy(
    y_true,
    y_pred,
    apply_class_balancing=False,
    alpha=0.25,
    gamma=2.0,
    from_logits=False,
    label_smoothing=0.0,
    axis=-1,
):
    """Binary cross-entropy scaled by `(1 - p_t) ** gamma` (and by `alpha` for positives, `1 -
    alpha` for negatives when `apply_class_balancing`), averaged over `axis`."""
    y_true, y_pred = float_pair(y_true, y_pred, "binary_focal_crossentropy")
    y_true = _smooth(y_true, label_smoothing, 2)
    cross_entropy = ops.binary_crossentropy(y_true, y_pred, from_logits=from_logits)
    prob = ops.sigmoid(y_pred) if from_logits else y_pred
    p_t = ops.add(
        ops.multiply(y_true, prob), ops.multiply(ops.subtract(1.0, y_true), ops.subtract(1.0, prob))
    )
    loss = ops.multiply(ops.power(ops.subtract(1.0, p_t), gamma), cross_entropy)
    if apply_class_balancing:
        balance = ops.add(
            ops.multiply(y_true, alpha), ops.multiply(ops.subtract(1.0, y_true), 1.0 - alpha)
        )
        loss = ops.multiply(balance, loss)
    return ops.mean(loss, axis=axis)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Cross-entropy between one-hot (or soft) labels and class probabilities along `axis`."""
    _check_axis("categorical_crossentropy", axis)
    y_true, y_pred = float_pair(y_true, y_pred, "categorical_crossentropy", match=False)
    y_true = _smooth(y_true, label_smoothing, ops.shape(y_pred)[axis])
    return ops.categorical_crossentropy(y_true, y_pred, from_logits=from_logits, axis=axis)


def categorical_focal_crossentropy(
    y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1
):
    """Categorical cross-entropy with each class term scaled by `alpha * (1 - p) ** gamma`."""
    _check_axis("categorical_focal_crossentropy", axis)
    y_true, y_pred = float_pair(y_true, y_pred, "categorical_focal_crossentropy", match=False)
    y_true = _smooth(y_true, label_smoothing, ops.shape(y_pred)[axis])
    prob = ops.softmax(y_pred, axis=axis) if from_logits else y_pred
    prob = ops.divide(prob, ops.sum(prob, axis=axis, keepdims=True))
    prob = ops.clip(prob, config.epsilon(), 1.0 - config.epsilon())
    cross_entropy = ops.negative(ops.multiply(y_true, ops.log(prob)))
    weight = ops.multiply(alpha, ops.power(ops.subtract(1.0, prob), gamma))
    return ops.sum(ops.multiply(weight, cross_entropy), axis=axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None, axis=-1):
    """Cross-entropy between integer labels and class probabilities along `axis`; labels equal
    to `ignore_class` give 0."""
    _check_axis("sparse_categorical_crossentropy", axis)
    y_pred = as_float(y_pred)
    labels = sparse_labels(y_true, y_pred)
    if ignore_class is None:
        return ops.sparse_categorical_crossentropy(
            labels, y_pred, from_logits=from_logits, axis=axis
        )
    valid = ops.not_equal(labels, ignore_class)
    labels = ops.where(valid, labels, ops.zeros_like(labels))
    values = ops.sparse_categorical_crossentropy(labels, y_pred, from_logits=from_logits, axis=axis)
    return ops.where(valid, values, ops.zeros_like(values))


def categorical_generalized_cross_entropy(y_true, y_pred, q):
    """`(1 - p ** q) / q` where `p` is the predicted probability of the integer label."""
    if isinstance(q, (int, float)):
        check_fraction("categorical_generalized_cross_entropy", "q", q, closed=False)
    y_pred = as_float(y_pred)
    labels = ops.expand_dims(sparse_labels(y_true, y_pred), -1)
    prob = ops.squeeze(ops.take_along_axis(y_pred, labels, axis=-1), -1)
    return ops.divide(ops.subtract(1.0, ops.power(prob, q)), q)


def kl_divergence(y_true, y_pred):
    """`sum(y_true * log(y_true / y_pred))` over the last axis, both clipped to [epsilon, 1]."""
    y_true, y_pred = float_pair(y_true, y_pred, "kl_divergence")
    y_true = ops.clip(y_true, config.epsilon(), 1.0)
    y_pred = ops.clip(y_pred, config.epsilon(), 1.0)
    return ops.sum(ops.multiply(y_true, ops.log(ops.divide(y_true, y_pred))), axis=-1)


def poisson(y_true, y_pred):
    """Mean of `y_pred - y_true * log(y_pred + epsilon)` over the last axis."""
    y_true, y_pred = float_pair(y_true, y_pred, "poisson")
    log_pred = ops.log(ops.add(y_pred, config.epsilon()))
    return ops.mean(ops.subtract(y_pred, ops.multiply(y_true, log_pred)), axis=-1)


class BinaryCrossentropy(BuiltinLoss):
    """Binary cross-entropy of probabilities (or logits when `from_logits`), with optional label
    smoothing towards 0.5.

    For labels `y` in {0, 1} and predicted probabilities `p`: the mean over the last axis of
    `-(y * log(p) + (1 - y) * log(1 - p))`, reduced over the batch.

    Args:
        from_logits: bool, `y_pred` holds logits (unnormalized scores) rather than
            probabilities; more stable numerically (default False).
        label_smoothing: float in [0, 1]: labels become `y * (1 - s) + 0.5 * s`.
        axis: int, the axis averaged over (default -1).
        reduction: how per-sample values become the result: "sum_over_batch_size" (default:
            the sum over the number of values), "sum", "mean_with_sample_weight" (the sum over
            the sum of the weights) or "none" (the per-sample values).
        name: str, the loss's name in logs.
        dtype: the dtype inputs are cast to and the loss computed in; default floatx.

    Raises:
        ValueError: `label_smoothing` outside [0, 1].

    Examples:
        >>> loss = tripod.losses.BinaryCrossentropy()
        >>> print(round(float(loss(np.array([[1.0], [0.0]]), np.array([[0.9], [0.2]]))), 4))
        0.1643
        >>> logits = tripod.losses.BinaryCrossentropy(from_logits=True)
        >>> print(round(float(logits(np.array([[1.0]]), np.array([[0.0]]))), 4))  # log(2)
        0.6931
    """

    def __init__(
        self,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction="sum_over_batch_size",
        name="binary_crossentropy",
        dtype=None,
    ):
        check_fraction(type(self).__name__, "label_smoothing", label_smoothing)
        super().__init__(
            binary_crossentropy,
            name=name,
            reduction=reduction,
            dtype=dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )


class BinaryFocalCrossentropy(BuiltinLoss):
    """Binary cross-entropy down-weighting well-classified examples by `(1 - p_t) ** gamma`."""

    def __init__(
        self,
        apply_class_balancing=False,
        alpha=0.25,
        gamma=2.0,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction="sum_over_batch_size",
        name="binary_focal_crossentropy",
        dtype=None,
    ):
        check_fraction(type(self).__name__, "label_smoothing", label_smoothing)
        super().__init__(
            binary_focal_crossentropy,
            name=name,
            reduction=reduction,
            dtype=dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
            apply_class_balancing=apply_class_balancing,
            alpha=alpha,
            gamma=gamma,
        )


class CategoricalCrossentropy(BuiltinLoss):
    """Cross-entropy between one-hot labels and class probabilities (or logits).

    For one-hot labels `y` and probabilities `p` along `axis`: `-sum(y * log(p))`, reduced over
    the batch. For integer labels use `SparseCategoricalCrossentropy`.

    Args:
        from_logits: bool, `y_pred` holds logits (unnormalized scores) rather than
            probabilities; more stable numerically (default False).
        label_smoothing: float in [0, 1]: labels become `y * (1 - s) + s / classes`.
        axis: int, the class axis (default -1).
        reduction: how per-sample values become the result: "sum_over_batch_size" (default:
            the sum over the number of values), "sum", "mean_with_sample_weight" (the sum over
            the sum of the weights) or "none" (the per-sample values).
        name: str, the loss's name in logs.
        dtype: the dtype inputs are cast to and the loss computed in; default floatx.

    Raises:
        ValueError: `label_smoothing` outside [0, 1], or `axis` not an int.

    Examples:
        >>> loss = tripod.losses.CategoricalCrossentropy()
        >>> y_true = np.array([[0.0, 1.0, 0.0]])
        >>> print(round(float(loss(y_true, np.array([[0.25, 0.5, 0.25]]))), 4))  # -log(0.5)
        0.6931
    """

    def __init__(
        self,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction="sum_over_batch_size",
        name="categorical_crossentropy",
        dtype=None,
    ):
        check_fraction(type(self).__name__, "label_smoothing", label_smoothing)
        _check_axis(type(self).__name__, axis)
        super().__init__(
            categorical_crossentropy,
            name=name,
            reduction=reduction,
            dtype=dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )


class CategoricalFocalCrossentropy(BuiltinLoss):
    """Categorical cross-entropy down-weighting confident classes by `alpha * (1 - p) ** gamma`."""

    def __init__(
        self,
        alpha=0.25,
        gamma=2.0,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction="sum_over_batch_size",
        name="categorical_focal_crossentropy",
        dtype=None,
    ):
        check_fraction(type(self).__name__, "label_smoothing", label_smoothing)
        _check_axis(type(self).__name__, axis)
        super().__init__(
            categorical_focal_crossentropy,
            name=name,
            reduction=reduction,
            dtype=dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
            alpha=alpha,
            gamma=gamma,
        )


class SparseCategoricalCrossentropy(BuiltinLoss):
    """Cross-entropy between integer labels and class probabilities (or logits); labels equal to
    `ignore_class` neither add to the loss nor count in its mean.

    The usual loss of a classifier whose targets are class indices: for label `k` and
    probabilities `p`, `-log(p[k])`, reduced over the batch.

    Args:
        from_logits: bool, `y_pred` holds logits (unnormalized scores) rather than
            probabilities; more stable numerically (default False).
        ignore_class: int, a label (e.g. padding) left out of the loss; default None.
        reduction: how per-sample values become the result: "sum_over_batch_size" (default:
            the sum over the number of values), "sum", "mean_with_sample_weight" (the sum over
            the sum of the weights) or "none" (the per-sample values).
        axis: int, the class axis of `y_pred` (default -1).
        name: str, the loss's name in logs.
        dtype: the dtype inputs are cast to and the loss computed in; default floatx.

    Raises:
        ValueError: `axis` is not an int.

    Examples:
        >>> loss = tripod.losses.SparseCategoricalCrossentropy(from_logits=True)
        >>> logits = np.array([[2.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
        >>> print(round(float(loss(np.array([0, 2]), logits)), 4))
        0.6691
    """

    def __init__(
        self,
        from_logits=False,
        ignore_class=None,
        reduction="sum_over_batch_size",
        axis=-1,
        name="sparse_categorical_crossentropy",
        dtype=None,
    ):
        _check_axis(type(self).__name__, axis)
        super().__init__(
            sparse_categorical_crossentropy,
            name=name,
            reduction=reduction,
            dtype=dtype,
            from_logits=from_logits,
            ignore_class=ignore_class,
            axis=axis,
        )

    def _loss_mask(self, y_true, y_pred):
        ignore_class = self._fn_kwargs["ignore_class"]
        if ignore_class is None:
            return None
        return ops.not_equal(sparse_labels(y_true, y_pred), ignore_class)


class CategoricalGeneralizedCrossEntropy(BuiltinLoss):
    """The generalized cross-entropy `(1 - p ** q) / q` of integer labels, robust to label noise;
    `q` in (0, 1)."""

    def __init__(
        self,
        q=0.5,
        reduction="sum_over_batch_size",
        name="categorical_generalized_cross_entropy",
        dtype=None,
    ):
        check_fraction(type(self).__name__, "q", q, closed=False)
        super().__init__(
            categorical_generalized_cross_entropy, name=name, reduction=reduction, dtype=dtype, q=q
        )


class KLDivergence(BuiltinLoss):
    """The Kullback-Leibler divergence from predictions to labels (`kl_divergence`)."""

    def __init__(self, reduction="sum_over_batch_size", name="kl_divergence", dtype=None):
        super().__init__(kl_divergence, name=name, reduction=reduction, dtype=dtype)


class Poisson(BuiltinLoss):
    """The Poisson negative log-likelihood, up to a constant (`poisson`)."""

    def __init__(self, reduction="sum_over_batch_size", name="poisson", dtype=None):
        super().__init__(poisson, name=name, reduction=reduction, dtype=dtype)
