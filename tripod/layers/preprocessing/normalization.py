"""`Normalization`: (inputs - mean) / sqrt(variance), with mean and variance given or adapted."""

import numpy as np

from tripod.backends import config
from tripod.layers.preprocessing._encoding import iterate_batches
from tripod.layers.preprocessing.data_layer import Constant, DataLayer


class Normalization(DataLayer):
    """Normalize features: `(x - mean) / sqrt(variance)` along the kept axes (or the inverse).

    The layer holds one mean and one variance per position along `axis` (the other axes are
    reduced over): given to the constructor, or computed from data by `adapt(data)` on the host.
    The standard deviation is floored at `tripod.config.epsilon()`. Outputs have the input's shape,
    in the compute dtype.

    Args:
        axis: int, tuple of ints or None: the axes kept, each with its own statistics (default
            -1, the features); None keeps none (one scalar mean and variance).
        mean: number or array broadcastable to the kept axes' shape, or None (default: set by
            `adapt`); give `variance` with it.
        variance: number or array like `mean`, or None.
        invert: bool, compute `x * sqrt(variance) + mean` instead, undoing the normalization
            (default False).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: only one of `mean` and `variance` is given, an axis out of range or of
            unknown size for the input, `adapt` with a given mean and variance, or `adapt` on no
            data.

    Examples:
        >>> layer = tripod.layers.Normalization(mean=2.0, variance=4.0)
        >>> tripod.ops.convert_to_numpy(layer(np.array([[0.0], [2.0], [4.0]]))).tolist()
        [[-1.0], [0.0], [1.0]]
        >>> layer = tripod.layers.Normalization()
        >>> layer.adapt(np.array([[1.0, 10.0], [3.0, 30.0]]))
        >>> tripod.ops.convert_to_numpy(layer(np.array([[3.0, 10.0]]))).tolist()
        [[1.0, -1.0]]
    """

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        if axis is None:
            axis = ()
        elif isinstance(axis, int):
            axis = (axis,)
        else:
            axis = tuple(axis)
        if (mean is None) != (variance is None):
            raise ValueError(
                f"Normalization '{self.name}': pass both mean and variance or neither, received "
                f"mean={mean!r} and variance={variance!r}."
            )
        self.axis = axis
        self.input_mean = mean
        self.input_variance = variance
        self.invert = invert

    def _kept_axes(self, rank):
        """The kept axes as sorted non-negative integers, checked against the input rank."""
        for a in self.axis:
            if not -rank <= a < rank:
                raise ValueError(
                    f"Normalization '{self.name}': axis {a} is out of range for inputs of rank "
                    f"{rank}."
                )
        return tuple(sorted(a % rank for a in self.axis))

    def build(self, input_shape):
        rank = len(input_shape)
        kept = self._kept_axes(rank)
        for a in kept:
            if input_shape[a] is None:
                raise ValueError(
                    f"Normalization '{self.name}': the kept axis {a} must have a known size, "
                    f"received input shape {tuple(input_shape)}."
                )
        self._kept = kept
        self._reduced = tuple(a for a in range(rank) if a not in kept)
        self._weight_shape = tuple(input_shape[a] for a in kept)
        self._broadcast_shape = tuple(input_shape[a] if a in kept else 1 for a in range(rank))
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(
                name="mean", shape=self._weight_shape, initializer="zeros", trainable=False
            )
            self.adapt_variance = self.add_weight(
                name="variance", shape=self._weight_shape, initializer="ones", trainable=False
            )
            self.count = self.add_weight(
                name="count", shape=(), dtype="int32", initializer="zeros", trainable=False
            )
        else:
            self._mean = self._constant(self.input_mean)
            self._variance = self._constant(self.input_variance)
        self.built = True

    def _constant(self, value):
        array = np.broadcast_to(np.asarray(value, dtype="float64"), self._weight_shape)
        return Constant(array.reshape(self._broadcast_shape), self.compute_dtype)

    def adapt(self, data):
        """Set mean and variance from `data` (an array/tensor or an iterable of batches), on the
        host."""
        if self.input_mean is not None:
            raise ValueError(
                f"Normalization '{self.name}': adapt() cannot be used with a given mean and "
                "variance."
            )
        total, total_sq, count = 0.0, 0.0, 0
        for batch in iterate_batches(data):
            batch = batch.astype(np.float64)
            if not self.built:  # recorded as a call would, so a saved model rebuilds it
                shape = (None,) + batch.shape[1:]
                self.build(shape)
                self._build_shapes, self.built = {"input_shape": shape}, True
            total = total + batch.sum(axis=self._reduced, keepdims=True)
            total_sq = total_sq + np.square(batch).sum(axis=self._reduced, keepdims=True)
            count += batch.size // int(np.prod(self._weight_shape, dtype=np.int64))
        if count == 0:
            raise ValueError(f"Normalization '{self.name}': adapt() received no data.")
        mean = total / count
        variance = np.maximum(total_sq / count - np.square(mean), 0.0)
        self.adapt_mean.assign(mean.reshape(self._weight_shape).astype(self.variable_dtype))
        self.adapt_variance.assign(variance.reshape(self._weight_shape).astype(self.variable_dtype))

    def call(self, inputs):
        ops = self.backend
        x = ops.cast(inputs, self.compute_dtype)
        if self.input_mean is None:
            mean, variance = (
                self._adapted(ops, self.adapt_mean),
                self._adapted(ops, self.adapt_variance),
            )
        else:
            mean, variance = self._mean.on(ops), self._variance.on(ops)
        std = ops.maximum(ops.sqrt(variance), config.epsilon())
        if self.invert:
            return ops.add(ops.multiply(x, std), mean)
        return ops.divide(ops.subtract(x, mean), std)

    def _adapted(self, ops, variable):
        """An adapted statistic, in the compute dtype and shaped to broadcast against inputs."""
        return ops.reshape(
            ops.cast(self.value_of(variable), self.compute_dtype), self._broadcast_shape
        )

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {
            **super().get_config(),
            "axis": self.axis,
            "invert": self.invert,
            "mean": _listed(self.input_mean),
            "variance": _listed(self.input_variance),
        }


def _listed(value):
    """A config value: arrays as (nested) lists, scalars and None as they are."""
    return np.asarray(value).tolist() if isinstance(value, np.ndarray) else value
