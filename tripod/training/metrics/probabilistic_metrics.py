"""Probabilistic metrics: the mean crossentropy, KL divergence or Poisson loss over samples."""

from tripod.training import losses
from tripod.training.metrics.reduction_metrics import BuiltinMeanMetric


class BinaryCrossentropy(BuiltinMeanMetric):
    """The mean binary crossentropy between labels and predicted probabilities (or logits)."""

    def __init__(
        self, name="binary_crossentropy", dtype=None, from_logits=False, label_smoothing=0
    ):
        super().__init__(
            losses.binary_crossentropy,
            name=name,
            dtype=dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
        )


class CategoricalCrossentropy(BuiltinMeanMetric):
    """The mean crossentropy between one-hot labels and predicted distributions (or logits)."""

    def __init__(
        self,
        name="categorical_crossentropy",
        dtype=None,
        from_logits=False,
        label_smoothing=0,
        axis=-1,
    ):
        super().__init__(
            losses.categorical_crossentropy,
            name=name,
            dtype=dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )


class SparseCategoricalCrossentropy(BuiltinMeanMetric):
    """The mean crossentropy between integer labels and predicted distributions (or logits)."""

    def __init__(
        self,
        name="sparse_categorical_crossentropy",
        dtype=None,
        from_logits=False,
        ignore_class=None,
        axis=-1,
    ):
        super().__init__(
            losses.sparse_categorical_crossentropy,
            name=name,
            dtype=dtype,
            from_logits=from_logits,
            ignore_class=ignore_class,
            axis=axis,
        )


class KLDivergence(BuiltinMeanMetric):
    """The mean Kullback-Leibler divergence from label to predicted distributions."""

    def __init__(self, name="kl_divergence", dtype=None):
        super().__init__(losses.kl_divergence, name=name, dtype=dtype)


class Poisson(BuiltinMeanMetric):
    """The mean Poisson loss, `y_pred - y_true * log(y_pred)`."""

    def __init__(self, name="poisson", dtype=None):
        super().__init__(losses.poisson, name=name, dtype=dtype)
