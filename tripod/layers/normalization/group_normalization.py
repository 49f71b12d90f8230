"""`GroupNormalization`: normalize each example over groups of channels."""

from tripod.backends import active
from tripod.layers import weight_settings
from tripod.layers.input_spec import InputSpec
from tripod.layers.normalization import _axes
from tripod.layers.normalization.base_normalization import _BaseNormalization

ops = active()


class GroupNormalization(_BaseNormalization):
    """Normalizes each example over groups of channels, then scales and shifts per channel.

    The channels on `axis` are split into `groups` consecutive groups; each group of each example
    is normalized to zero mean and unit variance over its channels and every other non-batch axis:
    `(x - mean) / sqrt(variance + epsilon) * gamma + beta`. With `groups=1` this is a layer
    normalization over all non-batch axes; with one group per channel, an instance normalization.
    The output has the input's shape.

    Args:
        groups: int > 0, the number of channel groups; the channel count must be a multiple of
            it (default 32).
        axis: int, the channel axis (default -1).
        epsilon: float added to the variance (default 1e-3).
        center: bool, add the learned per-channel offset `beta` (default True).
        scale: bool, multiply by the learned per-channel scale `gamma` (default True).
        beta_initializer: initializer of beta; default "zeros".
        gamma_initializer: initializer of gamma; default "ones".
        beta_regularizer: regularizer of beta.
        gamma_regularizer: regularizer of gamma.
        beta_constraint: constraint of beta.
        gamma_constraint: constraint of gamma.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `groups` is not a positive integer or `axis` not an int; on the first call,
            `axis` is out of range or the channel count is not a multiple of `groups`.

    Examples:
        >>> norm = tripod.layers.GroupNormalization(groups=2)
        >>> x = np.array([[0.0, 2.0, 5.0, 7.0]])  # two groups: [0, 2] and [5, 7]
        >>> print(np.round(tripod.ops.convert_to_numpy(norm(x)), 2))
        [[-1.  1. -1.  1.]]
        >>> tuple(norm.gamma.shape), tuple(norm.beta.shape)
        ((4,), (4,))
    """

    def __init__(
        self,
        groups=32,
        axis=-1,
        epsilon=0.001,
        center=True,
        scale=True,
        beta_initializer="zeros",
        gamma_initializer="ones",
        beta_regularizer=None,
        gamma_regularizer=None,
        beta_constraint=None,
        gamma_constraint=None,
        **kwargs,
    ):
        super().__init__(
            center=center,
            scale=scale,
            beta_initializer=beta_initializer,
            gamma_initializer=gamma_initializer,
            beta_regularizer=beta_regularizer,
            gamma_regularizer=gamma_regularizer,
            beta_constraint=beta_constraint,
            gamma_constraint=gamma_constraint,
            **kwargs,
        )
        label = f"GroupNormalization '{self.name}'"
        if not isinstance(groups, int) or isinstance(groups, bool) or groups <= 0:
            raise ValueError(f"{label}: groups must be a positive integer, received {groups!r}.")
        if not isinstance(axis, int) or isinstance(axis, bool):
            # a ValueError, not a TypeError: the argument has a bad value
            raise ValueError(f"{label}: axis must be an int, received {axis!r}.")  # noqa: TRY004
        self.groups = groups
        self.axis = axis
        self.epsilon = float(epsilon)

    def build(self, input_shape):
        label = f"GroupNormalization '{self.name}'"
        (axis,) = _axes.resolve([self.axis], input_shape, label)
        channels = input_shape[axis]
        if channels < self.groups or channels % self.groups:
            raise ValueError(
                f"{label}: the number of channels ({channels}, axis {self.axis} of input shape "
                f"{tuple(input_shape)}) must be a multiple of groups ({self.groups}) and at least "
                "groups."
            )
        self._add_gamma_beta((channels,), self.scale, self.center)
        rank = len(input_shape)
        self.input_spec = InputSpec(ndim=rank, axes={axis: channels})
        self._channel_axis = axis
        # In the grouped view the channel axis becomes (groups, channels // groups).
        self._group_reduction_axes = [i for i in range(1, rank + 1) if i != axis]
        self._param_shape = _axes.broadcast_shape([axis], input_shape)
        self.built = True

    def call(self, inputs):
        x = self._statistics_input(inputs)
        dtype = ops.dtype(x)
        shape = ops.shape(x)
        axis = self._channel_axis
        grouped_shape = (
            list(shape[:axis]) + [self.groups, shape[axis] // self.groups] + list(shape[axis + 1 :])
        )
        grouped = ops.reshape(x, grouped_shape)
        mean, variance = ops.moments(grouped, axes=self._group_reduction_axes, keepdims=True)
        normalized = ops.multiply(
            ops.subtract(grouped, mean), ops.rsqrt(ops.add(variance, self.epsilon))
        )
        outputs = ops.reshape(normalized, shape)
        if self.gamma is not None:
            outputs = ops.multiply(
                outputs, ops.reshape(ops.cast(self.gamma.value, dtype), self._param_shape)
            )
        if self.beta is not None:
            outputs = ops.add(
                outputs, ops.reshape(ops.cast(self.beta.value, dtype), self._param_shape)
            )
        return ops.cast(outputs, ops.dtype(inputs))

    def get_config(self):
        return {
            **super().get_config(),
            "groups": self.groups,
            "axis": self.axis,
            "epsilon": self.epsilon,
            "center": self.center,
            "scale": self.scale,
            **weight_settings.config(self, "beta", "gamma"),
        }
