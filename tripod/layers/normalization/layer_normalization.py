"""`LayerNormalization`: normalize each example over the given axes, then scale and shift."""

from tripod.backends import active
from tripod.layers import weight_settings
from tripod.layers.normalization import _axes
from tripod.layers.normalization.base_normalization import _BaseNormalization

ops = active()


class LayerNormalization(_BaseNormalization):
    """(x - mean) / sqrt(variance + epsilon) * gamma + beta, statistics taken over `axis` per example.

    The deprecated `rms_scaling=True` (accepted as a keyword, as in Keras) divides by
    sqrt(variance + epsilon) without centering and drops beta.
    """

    def __init__(self, axis=-1, epsilon=0.001, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None,
                 beta_constraint=None, gamma_constraint=None, **kwargs):  # fmt: skip
        rms_scaling = kwargs.pop("rms_scaling", False)
        super().__init__(
            center, scale, beta_initializer, gamma_initializer, beta_regularizer, gamma_regularizer,
            beta_constraint, gamma_constraint, **kwargs,
        )  # fmt: skip
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
        self._param_shape = _axes.trailing_or_broadcast_shape(axes, input_shape)
        self.built = True

    def _param(self, variable, dtype):
        value = ops.cast(variable.value, dtype)
        return value if self._param_shape is None else ops.reshape(value, self._param_shape)

    def call(self, inputs):
        x = self._statistics_input(inputs)
        dtype = ops.dtype(x)
        gamma, beta = (
            None if v is None else self._param(v, dtype) for v in (self.gamma, self.beta)
        )
        # One op: a native kernel where the backend has one (torch's layer_norm over trailing axes).
        outputs = ops.layer_normalization(
            x, gamma, beta, axis=self._axes, epsilon=self.epsilon, rms_scaling=self.rms_scaling
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
