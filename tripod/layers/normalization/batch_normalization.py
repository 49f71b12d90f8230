"""`BatchNormalization`: normalize with batch statistics in training, moving averages otherwise."""

from tripod.backends import active
from tripod.layers import initializers, weight_settings
from tripod.layers.input_spec import InputSpec
from tripod.layers.normalization import _axes
from tripod.layers.normalization.base_normalization import _BaseNormalization

ops = active()


class BatchNormalization(_BaseNormalization):
    """Normalizes each feature along `axis` with the statistics of the batch, or of the past.

    In training (`training=True`, as `fit` calls it) the layer normalizes with the batch's mean
    and variance and moves its running averages towards them:
    `moving = moving * momentum + batch_value * (1 - momentum)`. At inference it uses the running
    averages. Either way the result is scaled by `gamma` and offset by `beta`.

    Args:
        axis: int, the feature axis (default -1; 1 for "channels_first" images).
        momentum: float in [0, 1], the running averages' momentum (default 0.99).
        epsilon: float > 0 added to the variance (default 1e-3).
        center: bool, add the learned offset `beta` (default True).
        scale: bool, multiply by the learned scale `gamma` (default True).
        beta_initializer: initializer of beta; default "zeros".
        gamma_initializer: initializer of gamma; default "ones".
        moving_mean_initializer: initializer of the running mean; default "zeros".
        moving_variance_initializer: initializer of the running variance; default "ones".
        beta_regularizer: regularizer of beta.
        gamma_regularizer: regularizer of gamma.
        beta_constraint: constraint of beta.
        gamma_constraint: constraint of gamma.
        renorm: not supported; must be False.
        renorm_clipping: kept in the config only (renorm is not supported).
        renorm_momentum: kept in the config only (renorm is not supported).
        synchronized: bool, take the batch statistics over every replica of a distributed
            run (`ops.moments(..., synchronized=True)`) instead of each replica's own batch.
        **kwargs: the `Layer` arguments (name, dtype, ...).

    Raises:
        ValueError: `axis` not an int, `momentum` outside [0, 1] or `epsilon` not positive.
        NotImplementedError: `renorm=True`.

    Examples:
        >>> norm = tripod.layers.BatchNormalization()
        >>> x = np.array([[0.0], [2.0]])
        >>> print(np.round(tripod.ops.convert_to_numpy(norm(x, training=True)), 2))
        [[-1.]
         [ 1.]]
        >>> print(np.round(tripod.ops.convert_to_numpy(norm.moving_mean), 2))
        [0.01]
    """

    def __init__(
        self,
        axis=-1,
        momentum=0.99,
        epsilon=0.001,
        center=True,
        scale=True,
        beta_initializer="zeros",
        gamma_initializer="ones",
        moving_mean_initializer="zeros",
        moving_variance_initializer="ones",
        beta_regularizer=None,
        gamma_regularizer=None,
        beta_constraint=None,
        gamma_constraint=None,
        renorm=False,
        renorm_clipping=None,
        renorm_momentum=0.99,
        synchronized=False,
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
        label = f"BatchNormalization '{self.name}'"
        if not isinstance(axis, int) or isinstance(axis, bool):
            # a ValueError, not a TypeError: the argument has a bad value
            raise ValueError(f"{label}: axis must be an int, received {axis!r}.")  # noqa: TRY004
        if not 0.0 <= momentum <= 1.0:
            raise ValueError(f"{label}: momentum must be in [0, 1], received {momentum!r}.")
        if not epsilon > 0:
            raise ValueError(f"{label}: epsilon must be positive, received {epsilon!r}.")
        if renorm:
            raise NotImplementedError(
                f"{label}: batch renormalization (renorm=True) is not supported."
            )
        self.axis = axis
        self.momentum = float(momentum)
        self.epsilon = float(epsilon)
        self.synchronized = synchronized
        self.renorm = renorm
        self.renorm_clipping = renorm_clipping
        self.renorm_momentum = renorm_momentum
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)

    def build(self, input_shape):
        (axis,) = _axes.resolve([self.axis], input_shape, f"BatchNormalization '{self.name}'")
        shape = (input_shape[axis],)
        self._add_gamma_beta(shape, self.scale, self.center)
        self.moving_mean = self.add_weight(
            shape=shape,
            initializer=self.moving_mean_initializer,
            name="moving_mean",
            trainable=False,
            autocast=False,
        )
        self.moving_variance = self.add_weight(
            shape=shape,
            initializer=self.moving_variance_initializer,
            name="moving_variance",
            trainable=False,
            autocast=False,
        )
        rank = len(input_shape)
        self.input_spec = InputSpec(ndim=rank, axes={axis: input_shape[axis]})
        self._feature_axis = axis
        self._reduction_axes = [i for i in range(rank) if i != axis]
        self.built = True

    def call(self, inputs, training=None, mask=None):
        x = self._statistics_input(inputs)
        dtype = ops.dtype(x)
        offset = None if self.beta is None else ops.cast(self.beta.value, dtype)
        scale = None if self.gamma is None else ops.cast(self.gamma.value, dtype)
        training = training and self.trainable
        if training and mask is None and not self.synchronized:
            # One step of the backend's batch-norm kernel where it has one (torch).
            outputs, mean, variance = ops.batch_norm_training(
                x, self._feature_axis, scale, offset, self.epsilon
            )
            self._update_moving_averages(mean, variance)
            return ops.cast(outputs, ops.dtype(inputs))
        if training:
            mean, variance = self._batch_moments(x, mask)
            self._update_moving_averages(mean, variance)
        else:
            mean, variance = self.moving_mean.value, self.moving_variance.value
        outputs = ops.batch_normalization(
            x,
            ops.cast(mean, dtype),
            ops.cast(variance, dtype),
            axis=self._feature_axis,
            offset=offset,
            scale=scale,
            epsilon=self.epsilon,
        )
        return ops.cast(outputs, ops.dtype(inputs))

    def _batch_moments(self, x, mask):
        """Mean and variance over every axis but the feature axis; masked entries don't count."""
        if mask is None:
            return ops.moments(x, axes=self._reduction_axes, synchronized=self.synchronized)
        weights = ops.cast(mask, ops.dtype(x))
        while len(weights.shape) < len(x.shape):
            weights = ops.expand_dims(weights, -1)
        weights = ops.broadcast_to(weights, ops.shape(x))
        count = ops.maximum(ops.sum(weights, axis=self._reduction_axes), 1.0)
        mean = ops.divide(ops.sum(ops.multiply(x, weights), axis=self._reduction_axes), count)
        centered = ops.subtract(x, ops.reshape(mean, self._stat_shape(x)))
        variance = ops.divide(
            ops.sum(ops.multiply(ops.square(centered), weights), axis=self._reduction_axes), count
        )
        return mean, variance

    def _stat_shape(self, x):
        return [x.shape[i] if i == self._feature_axis else 1 for i in range(len(x.shape))]

    def _update_moving_averages(self, mean, variance):
        for variable, value in ((self.moving_mean, mean), (self.moving_variance, variance)):
            value = ops.cast(value, variable.dtype)
            variable.assign(
                ops.add(
                    ops.multiply(variable.value, self.momentum),
                    ops.multiply(value, 1.0 - self.momentum),
                )
            )

    def get_config(self):
        return {
            **super().get_config(),
            "axis": self.axis,
            "momentum": self.momentum,
            "epsilon": self.epsilon,
            "center": self.center,
            "scale": self.scale,
            **weight_settings.config(self, "beta", "gamma", "moving_mean", "moving_variance"),
            "synchronized": self.synchronized,
            "renorm": self.renorm,
            "renorm_clipping": self.renorm_clipping,
            "renorm_momentum": self.renorm_momentum,
        }
