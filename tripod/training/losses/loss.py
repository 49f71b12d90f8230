"""The Loss base class: inputs cast to the loss dtype, per-sample values, weights, reductions.

A loss's `call(y_true, y_pred)` gives one value per sample (or per element). `__call__` multiplies
them by `sample_weight` and by the loss's own mask (ignored labels, rows without a pair), then
reduces them as Keras 3 does:

- `"sum_over_batch_size"`, `"mean"`: the weighted sum over the number of (unmasked) values;
- `"sum"`: the weighted sum;
- `"mean_with_sample_weight"`: the weighted sum over the sum of the weights;
- `"none"`, `None`: the weighted values themselves.
"""

import math

from tripod.backends import active, config, dtypes
from tripod.backends.common import tree
from tripod.layers import dtype_policies, naming
from tripod.saving import registry, serialization

ops = active()

REDUCTIONS = ("sum_over_batch_size", "sum", "mean", "mean_with_sample_weight", "none", None)


def standardize_reduction(reduction):
    """`reduction` if it names a Keras reduction, else a ValueError listing the valid ones."""
    if not (reduction is None or isinstance(reduction, str)) or reduction not in REDUCTIONS:
        raise ValueError(f"Invalid reduction {reduction!r}; expected one of {REDUCTIONS}.")
    return reduction


def match_ranks(x1, x2):
    """`x1`, `x2` with their ranks made equal where they differ by one trailing size-1 axis.

    The higher-rank tensor loses its trailing 1, except against a rank-1 tensor, which gains one
    instead: per-sample values of shape (batch,) meet weights of shape (batch, 1) as (batch, 1).
    """
    return _matched(x1, x2)[:2]


def _matched(x1, x2):
    """`match_ranks(x1, x2)` and the shapes of the two tensors it returns (derived, not asked
    for again: `check_broadcastable` needs them next)."""
    shape1, shape2 = ops.shape(x1), ops.shape(x2)
    if len(shape1) == len(shape2) + 1 and _is_one(shape1[-1]):
        if len(shape2) == 1:
            return x1, ops.expand_dims(x2, -1), shape1, (*shape2, 1)
        return ops.squeeze(x1, -1), x2, shape1[:-1], shape2
    if len(shape2) == len(shape1) + 1 and _is_one(shape2[-1]):
        if len(shape1) == 1:
            return ops.expand_dims(x1, -1), x2, (*shape1, 1), shape2
        return x1, ops.squeeze(x2, -1), shape1, shape2[:-1]
    return x1, x2, shape1, shape2


def _is_one(dim):
    return isinstance(dim, int) and dim == 1


def check_broadcastable(x1, x2, message):
    """Raise ValueError(`message`) when the known dimensions of `x1`, `x2` cannot broadcast."""
    _check_shapes(ops.shape(x1), ops.shape(x2), message)


def _check_shapes(shape1, shape2, message):
    """`check_broadcastable` given the two tensors' shapes."""
    for d1, d2 in zip(reversed(shape1), reversed(shape2)):
        # Only static sizes are checked: under tracing, unknown sizes may be None or tensors.
        if isinstance(d1, int) and isinstance(d2, int) and d1 != d2 and 1 not in (d1, d2):
            raise ValueError(f"{message}: shapes {tuple(shape1)} and {tuple(shape2)} do not match.")


def as_float(x):
    """`x` as a tensor, cast to floatx unless it is already floating."""
    return _float_tensor(x)[0]


def _float_tensor(x):
    """(`as_float(x)`, its dtype name)."""
    x = ops.convert_to_tensor(x)
    dtype = ops.dtype(x)
    if dtype in dtypes.FLOATS:
        return x, dtype
    dtype = config.floatx()
    return ops.cast(x, dtype), dtype


def float_pair(y_true, y_pred, name, match=True):
    """y_pred as a float tensor and y_true cast to its dtype, ranks matched, shapes checked."""
    y_pred, dtype = _float_tensor(y_pred)
    y_true = ops.cast(ops.convert_to_tensor(y_true), dtype)
    if match:
        y_true, y_pred, true_shape, pred_shape = _matched(y_true, y_pred)
    else:
        true_shape, pred_shape = ops.shape(y_true), ops.shape(y_pred)
    _check_shapes(true_shape, pred_shape, f"{name}: y_true and y_pred")
    return y_true, y_pred


def _count(values, mask):
    """How many values enter a mean: all of them (a Python int when the shape is static), or
    the unmasked ones."""
    if mask is None:
        shape = ops.shape(values)
        if all(isinstance(d, int) for d in shape):
            return math.prod(shape)
        return ops.cast(ops.size(values), ops.dtype(values))
    return ops.sum(ops.multiply(mask, ops.ones_like(values)))


def _product(a, b):
    """`a * b` where both are given, else whichever is (None for neither)."""
    if a is None or b is None:
        return b if a is None else a
    return ops.multiply(a, b)


def reduce_weighted_values(
    values, sample_weight=None, mask=None, reduction="sum_over_batch_size", dtype=None
):
    """Per-sample `values` times `sample_weight` and `mask` (1 keeps a value), reduced."""
    dtype = dtype or config.floatx()
    values = ops.cast(values, dtype)
    mask = None if mask is None else ops.cast(mask, dtype)
    if sample_weight is not None:
        sample_weight = ops.cast(ops.convert_to_tensor(sample_weight), dtype)
        if mask is not None:
            mask, _ = match_ranks(mask, sample_weight)
        values, sample_weight, *shapes = _matched(values, sample_weight)
        _check_shapes(*shapes, "sample_weight does not broadcast to the loss values")
    weight = _product(sample_weight, mask)
    weighted = values if weight is None else ops.multiply(values, weight)
    if reduction in (None, "none"):
        return weighted
    total = ops.sum(weighted)
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and weight is not None:
        return ops.divide_no_nan(total, ops.sum(weight))
    count = _count(weighted, mask)
    if isinstance(count, int):  # a static count: the sum of no values is 0 already
        return ops.divide(total, float(count)) if count else total
    return ops.divide_no_nan(total, count)


def _cast(x, dtype):
    """`x` as a tensor of `dtype` (None stays None)."""
    return None if x is None else ops.cast(ops.convert_to_tensor(x), dtype)


def _cast_leaves(structure, dtype):
    """Every leaf of `structure` `_cast` to `dtype` (a single tensor without a tree walk)."""
    if tree.is_nested(structure):
        return tree.map_structure(lambda x: _cast(x, dtype), structure)
    return _cast(structure, dtype)


class Loss:
    """Base class of losses: subclasses implement `call(y_true, y_pred)` giving per-sample values.

    `loss(y_true, y_pred, sample_weight=None)` casts both inputs to the loss's `dtype` (floatx
    by default, or a dtype policy's compute dtype), calls `call` and applies the weights and the
    `reduction`.

    Args:
        name: str, the loss's name in logs; default the class name in snake case.
        reduction: how per-sample values become the result: "sum_over_batch_size" (default:
            the sum over the number of values), "sum", "mean_with_sample_weight" (the sum over
            the sum of the weights) or "none" (the per-sample values).
        dtype: the dtype inputs are cast to and the loss computed in; default floatx.

    Raises:
        ValueError: an unknown `reduction`.

    Examples:
        >>> class AbsoluteError(tripod.losses.Loss):
        ...     def call(self, y_true, y_pred):
        ...         return tripod.ops.mean(tripod.ops.abs(y_true - y_pred), axis=-1)
        >>> loss = AbsoluteError()
        >>> float(loss(np.array([[0.0, 1.0]]), np.array([[1.0, 1.0]])))
        0.5
        >>> float(AbsoluteError(reduction="sum")(np.zeros((2, 1)), np.ones((2, 1))))
        2.0
    """

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        self.name = name or naming.to_snake_case(type(self).__name__)
        self.reduction = standardize_reduction(reduction)
        self._dtype_name = None if dtype is None else dtype_policies.get(dtype).name
        self._dtype = config.floatx() if dtype is None else dtype_policies.get(dtype).compute_dtype

    @property
    def dtype(self):
        """The dtype inputs are cast to and the loss is computed in."""
        return self._dtype

    def __call__(self, y_true, y_pred, sample_weight=None):
        dtype = self.dtype
        y_true, y_pred = _cast_leaves(y_true, dtype), _cast_leaves(y_pred, dtype)
        values = self.call(y_true, y_pred)
        mask = self._loss_mask(y_true, y_pred)
        return reduce_weighted_values(values, sample_weight, mask, self.reduction, dtype)

    def call(self, y_true, y_pred):
        raise NotImplementedError(f"{type(self).__name__} must implement call(y_true, y_pred).")

    def _loss_mask(self, y_true, y_pred):
        """Which of `call`'s values count (True) in the reduction; None: all of them."""

    def get_config(self):
        config = {"name": self.name, "reduction": self.reduction}
        if self._dtype_name is not None:
            config["dtype"] = self._dtype_name
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**decode_tagged(config))

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name!r} reduction={self.reduction!r}>"


def decode_tagged(config):
    """`config` with serialized tuples and arrays (`{"class_name": "__tuple__", ...}`) restored."""
    return {
        key: serialization.deserialize_keras_object(value)
        if isinstance(value, dict) and str(value.get("class_name", "")).startswith("__")
        else value
        for key, value in config.items()
    }


def _function_from_config(config):
    """A loss function from its serialized form, looked up among the losses first."""
    if isinstance(config, dict) and config.get("class_name") == "function":
        found = registry.resolve("keras.losses", config.get("config"))
        if found is not None:
            return found
    return serialization.deserialize_keras_object(config)


class LossFunctionWrapper(Loss):
    """A `Loss` computing its per-sample values with `fn(y_true, y_pred, **kwargs)`."""

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None, **kwargs):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def _fn_config(self):
        return {"fn": serialization.serialize_keras_object(self.fn)}

    def get_config(self):
        return {**super().get_config(), **self._fn_config(), **self._fn_kwargs}

    @classmethod
    def from_config(cls, config):
        config = decode_tagged(config)
        if "fn" in config:
            config["fn"] = _function_from_config(config["fn"])
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__}({getattr(self.fn, '__name__', self.fn)}, kwargs={self._fn_kwargs})>"


class BuiltinLoss(LossFunctionWrapper):
    """A built-in loss class: its function is fixed, so its config holds only the options."""

    def _fn_config(self):
        return {}


def check_fraction(owner, name, value, closed=True):
    """Raise ValueError unless the number `value` lies in [0, 1] (or (0, 1) when not `closed`)."""
    inside = 0 <= value <= 1 if closed else 0 < value < 1
    if not inside:
        interval = "[0, 1]" if closed else "(0, 1)"
        raise ValueError(f"{owner}: {name} must be in {interval}, received {value!r}.")
