"""`LayerNormalization`: normalize each example over the given axes, then scale and shift."""

from tripod.backends import active
from tripod.layers import constraints, initializers, regularizers
from tripod.layers.layer import Layer
from tripod.layers.normalization import _axes

ops = active()

_LOW_PRECISION = ("float16", "bfloat16")


class LayerNormalization(Layer):
    """(x - mean) / sqrt(variance + epsilon) * gamma + beta, statistics taken over `axis` per example.

    The deprecated `rms_scaling=True` (accepted as a keyword, as in Keras) divides by
    sqrt(variance + epsilon) without centering and drops beta.
    """

    def __init__(self, axis=-1, epsilon=0.001, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None,
                 beta_constraint=None, gamma_constraint=None, **kwargs):  # fmt: skip
        rms_scaling = kwargs.pop("rms_scaling", False)
        super().__init__(**kwargs)
        label = f"LayerNormalization '{self.name}'"
        self._axis_list = _axes.as_axes(axis, label)
        self.axis = self._axis_list if isinstance(axis, (list, tuple)) else axis
        if not epsilon > 0:
            raise ValueError(f"{label}: epsilon must be positive, received {epsilon!r}.")
        self.epsilon = float(epsilon)
        self.center = center
        self.scale = scale
        self.rms_scaling = bool(rms_scaling)
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.supports_masking = True

    def build(self, input_shape):
        axes = _axes.resolve(self._axis_list, input_shape, f"LayerNormalization '{self.name}'")
        shape = tuple(input_shape[a] for a in axes)
        self.gamma = self.beta = None
        if self.scale or self.rms_scaling:
            self.gamma = self.add_weight(
                shape=shape, initializer=self.gamma_initializer, name="gamma",
                regularizer=self.gamma_regularizer, constraint=self.gamma_constraint,
            )  # fmt: skip
        if self.center and not self.rms_scaling:
            self.beta = self.add_weight(
                shape=shape, initializer=self.beta_initializer, name="beta",
                regularizer=self.beta_regularizer, constraint=self.beta_constraint,
            )  # fmt: skip
        self._axes = axes
        # Weights reshape to broadcast unless they already line up with the trailing axes.
        trailing = axes == list(range(len(input_shape) - len(axes), len(input_shape)))
        self._param_shape = None if trailing else _axes.broadcast_shape(axes, input_shape)
        self.built = True

    def _param(self, variable, dtype):
        value = ops.cast(variable.value, dtype)
        return value if self._param_shape is None else ops.reshape(value, self._param_shape)

    def call(self, inputs):
        x = inputs
        if ops.dtype(x) in _LOW_PRECISION:
            x = ops.cast(x, "float32")
        dtype = ops.dtype(x)
        mean, variance = ops.moments(x, axes=self._axes, keepdims=True)
        inv = ops.rsqrt(ops.add(variance, self.epsilon))
        if self.gamma is not None:
            inv = ops.multiply(inv, self._param(self.gamma, dtype))
        if self.rms_scaling:
            outputs = ops.multiply(x, inv)
        else:
            outputs = ops.multiply(ops.subtract(x, mean), inv)
        if self.beta is not None:
            outputs = ops.add(outputs, self._param(self.beta, dtype))
        return ops.cast(outputs, ops.dtype(inputs))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {
            **super().get_config(),
            "axis": self._axis_list,
            "epsilon": self.epsilon,
            "center": self.center,
            "scale": self.scale,
            "rms_scaling": self.rms_scaling,
            "beta_initializer": initializers.serialize(self.beta_initializer),
            "gamma_initializer": initializers.serialize(self.gamma_initializer),
            "beta_regularizer": regularizers.serialize(self.beta_regularizer),
            "gamma_regularizer": regularizers.serialize(self.gamma_regularizer),
            "beta_constraint": constraints.serialize(self.beta_constraint),
            "gamma_constraint": constraints.serialize(self.gamma_constraint),
        }
