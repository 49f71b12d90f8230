"""`LayerNormalization`: normalize each example over the given axes, then scale and shift."""

from tripod.backends import active
from tripod.layers import weight_settings
from tripod.layers.normalization import _axes
from tripod.layers.normalization.base_normalization import _BaseNormalization

ops = active()


class LayerNormalization(_BaseNormalization):
    """Normalizes each example over `axis`: `(x - mean) / sqrt(variance + epsilon) * gamma + beta`.

    The statistics are those of each example alone (not of the batch), so training and
    inference compute the same thing. The deprecated `rms_scaling=True` (accepted as a keyword,
    as in Keras) divides by `sqrt(variance + epsilon)` without centering and drops beta.

    Args:
        axis: int or list of ints, the axes normalized over (default -1, the features).
        epsilon: float > 0 added to the variance (default 1e-3).
        center: bool, add the learned offset `beta` (default True).
        scale: bool, multiply by the learned scale `gamma` (default True).
        beta_initializer: initializer of beta; default "zeros".
        gamma_initializer: initializer of gamma; default "ones".
        beta_regularizer: regularizer of beta.
        gamma_regularizer: regularizer of gamma.
        beta_constraint: constraint of beta.
        gamma_constraint: constraint of gamma.
        **kwargs: the `Layer` arguments (name, dtype, ...).

    Raises:
        ValueError: `axis` is not an int or a list of ints, or is out of range for the input.

    Examples:
        >>> norm = tripod.layers.LayerNormalization()
        >>> x = np.array([[0.0, 2.0], [5.0, 7.0]])
        >>> print(np.round(tripod.ops.convert_to_numpy(norm(x)), 2))
        [[-1.  1.]
         [-1.  1.]]
    """

    def __init__(
        self,
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
        rms_scaling = kwargs.pop("rms_scaling", False)
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
        label = f"LayerNormalization '{self.name}'"
        self._axis_list = _axes.as_axes(axis, label)
        self.axis = self._axis_list if isinstance(axis, (list, tuple)) else axis
        if not epsilon > 0:
            raise ValueError(f"{label}: epsilon must be positive, received {epsilon!r}.")
        self.epsilon = float(epsilon)
        self.rms_scaling = bool(rms_scaling)

    def build(self, input_shape):
        axes = _axes.resolve(self._axis_list, input_shape, f"LayerNormalization '{self.name}'")
        shape = tuple(input_shape[a] for a in axes)
        self._add_gamma_beta(
            shape, self.scale or self.rms_scaling, self.center and not self.rms_scaling
        )
        self._axes = axes
        # The op's axis argument, fixed here: one axis as an int, which the backends take as it
        # is (a list is checked and sorted again on every call).
        self._op_axis = axes[0] if len(axes) == 1 else tuple(axes)
        self._param_shape = _axes.trailing_or_broadcast_shape(axes, input_shape)
        self.built = True

    def _param(self, variable, dtype):
        if variable is None:
            return None
        value = ops.cast(variable.value, dtype)
        return value if self._param_shape is None else ops.reshape(value, self._param_shape)

    def call(self, inputs):
        x = self._statistics_input(inputs)
        dtype = ops.dtype(x)
        # One op: a native kernel where the backend has one (torch's layer_norm over trailing axes).
        outputs = ops.layer_normalization(
            x,
            self._param(self.gamma, dtype),
            self._param(self.beta, dtype),
            axis=self._op_axis,
            epsilon=self.epsilon,
            rms_scaling=self.rms_scaling,
        )
        return ops.cast(outputs, ops.dtype(inputs))

    def get_config(self):
        return {
            **super().get_config(),
            "axis": self._axis_list,
            "epsilon": self.epsilon,
            "center": self.center,
            "scale": self.scale,
            "rms_scaling": self.rms_scaling,
            **weight_settings.config(self, "beta", "gamma"),
        }
