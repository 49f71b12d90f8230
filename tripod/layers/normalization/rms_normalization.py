"""`RMSNormalization`: divide by the root mean square over the given axes, then scale."""

from tripod.backends import active
from tripod.layers.layer import Layer
from tripod.layers.normalization import _axes

ops = active()


class RMSNormalization(Layer):
    """x / sqrt(mean(x^2 over `axis`) + epsilon) * scale, with a trainable per-feature `scale`."""

    def __init__(self, axis=-1, epsilon=1e-06, **kwargs):
        super().__init__(**kwargs)
        self.axis = _axes.as_axes(axis, f"RMSNormalization '{self.name}'")
        if not epsilon > 0:
            raise ValueError(
                f"RMSNormalization '{self.name}': epsilon must be positive, received {epsilon!r}."
            )
        self.epsilon = float(epsilon)

    def build(self, input_shape):
        axes = _axes.resolve(self.axis, input_shape, f"RMSNormalization '{self.name}'")
        self.scale = self.add_weight(
            shape=tuple(input_shape[a] for a in axes), initializer="ones", name="scale"
        )
        self._param_shape = _axes.trailing_or_broadcast_shape(axes, input_shape)
        self._axes = axes
        self.built = True

    def call(self, x):
        scale = self.scale.value
        if self._param_shape is not None:
            scale = ops.reshape(scale, self._param_shape)
        return ops.rms_normalization(x, scale=scale, axis=self._axes, epsilon=self.epsilon)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon}
