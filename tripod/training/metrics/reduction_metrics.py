"""Metrics reducing values to one number: `Sum`, `Mean`, and `MeanMetricWrapper` (the mean of
a per-sample function such as `mean_squared_error`, which `fit` wraps plain functions in)."""

from tripod.backends import active
from tripod.saving import serialization
from tripod.training.losses.loss import match_ranks
from tripod.training.metrics.metric import Metric

ops = active()


def _reduce_from(x, start, reduce):
    """`x` reduced with `reduce` over every axis from `start` on."""
    axes = tuple(range(start, len(x.shape)))
    return reduce(x, axis=axes) if axes else x


def per_sample(values, sample_weight, reduce, dtype):
    """(weighted values, weights) reduced to one entry per sample.

    Values are first reduced over the axes the weights lack; the weights are broadcast to what
    remains; both are then reduced (with `reduce`) over every axis but the first. Weights are
    None when `sample_weight` is.
    """
    values = ops.cast(values, dtype)
    if sample_weight is None:
        return _reduce_from(values, 1, reduce), None
    weights = ops.cast(sample_weight, dtype)
    values, weights = match_ranks(values, weights)
    values = _reduce_from(values, len(weights.shape), reduce)
    weights = ops.broadcast_to(weights, ops.shape(values))
    values = ops.multiply(values, weights)
    return _reduce_from(values, 1, reduce), _reduce_from(weights, 1, reduce)


class Sum(Metric):
    """The (weighted) sum of every value seen."""

    def __init__(self, name="sum", dtype=None):
        super().__init__(dtype=dtype, name=name)
        self.total = self.add_variable((), "zeros", name="total")

    def update_state(self, values, sample_weight=None):
        values, _ = per_sample(values, sample_weight, ops.sum, self.dtype)
        self.total.assign_add(ops.sum(values))

    def result(self):
        return ops.convert_to_tensor(self.total)


class Mean(Metric):
    """The (weighted) mean of every value seen: `sum(values * weights) / sum(weights)`.

    `update_state(values, sample_weight=None)` adds values (any shape; weights broadcast to
    them); `result()` is the mean so far.

    Args:
        name: str, the metric's name in logs (default "mean").
        dtype: the dtype of the metric's state and result; default floatx.

    Examples:
        >>> mean = tripod.metrics.Mean()
        >>> mean.update_state(np.array([1.0, 2.0, 3.0]))
        >>> mean.update_state(np.array([10.0]), sample_weight=np.array([0.0]))
        >>> float(mean.result())
        2.0
    """

    def __init__(self, name="mean", dtype=None):
        super().__init__(dtype=dtype, name=name)
        self.total = self.add_variable((), "zeros", name="total")
        self.count = self.add_variable((), "zeros", name="count")

    def update_state(self, values, sample_weight=None):
        if isinstance(sample_weight, (int, float)) and len(ops.shape(values)) == 0:
            # One value with a count as its weight (fit's loss tracker): no reductions needed.
            weight = float(sample_weight)
            self.total.assign_add(ops.multiply(ops.cast(values, self.dtype), weight))
            self.count.assign_add(weight)
            return
        values, weights = per_sample(values, sample_weight, ops.mean, self.dtype)
        self.total.assign_add(ops.sum(values))
        count = ops.cast(ops.size(values), self.dtype) if weights is None else ops.sum(weights)
        self.count.assign_add(count)

    def result(self):
        return ops.divide_no_nan(self.total, self.count)


class MeanMetricWrapper(Mean):
    """The mean of `fn(y_true, y_pred, **kwargs)`, a function giving one value per sample."""

    #: Whether `fn` is part of the config (not for subclasses that fix their function).
    _fn_in_config = True

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        values = self._fn(y_true, y_pred, **self._fn_kwargs)
        super().update_state(values, sample_weight=sample_weight)

    def get_config(self):
        config = super().get_config()
        if self._fn_in_config:
            config["fn"] = serialization.serialize_keras_object(self._fn)
        return {**config, **self._fn_kwargs}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if cls._fn_in_config and "fn" in config:
            config["fn"] = serialization.deserialize_keras_object(config["fn"])
        return cls(**config)


class BuiltinMeanMetric(MeanMetricWrapper):
    """A built-in mean metric: its function is fixed, so the config holds only its options."""

    _fn_in_config = False
