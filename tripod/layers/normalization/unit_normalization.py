"""`UnitNormalization`: scale each example to unit L2 norm over the given axes."""

from tripod.backends import active
from tripod.layers.layer import Layer
from tripod.layers.normalization import _axes

ops = active()


class UnitNormalization(Layer):
    """x / max(||x||_2, 1e-12) with the norm taken over `axis` for each example."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self._axis_list = _axes.as_axes(axis, f"UnitNormalization '{self.name}'")
        self.axis = self._axis_list if isinstance(axis, (list, tuple)) else axis
        self.supports_masking = True

    def build(self, input_shape):
        self._axes = _axes.resolve(self._axis_list, input_shape, f"UnitNormalization '{self.name}'")
        self.built = True

    def call(self, inputs):
        x = ops.cast(inputs, self.compute_dtype)
        squared = ops.sum(ops.square(x), axis=self._axes, keepdims=True)
        return ops.multiply(x, ops.rsqrt(ops.maximum(squared, 1e-24)))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}
