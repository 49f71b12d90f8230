"""`UnitNormalization`: scale each example to unit L2 norm over the given axes."""

from tripod.backends import active
from tripod.layers.layer import Layer
from tripod.layers.normalization import _axes

ops = active()


class UnitNormalization(Layer):
    """Scales each example to unit L2 norm over `axis`: `x / max(||x||, 1e-12)`.

    The norm is taken over `axis` separately for every example (and every position of the other
    axes); the output has the input's shape. The layer has no weights.

    Args:
        axis: int or list of ints, the axes the norm is taken over (default -1).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `axis` is not an int or a list of ints; on the first call, an axis is out
            of range for the input.

    Examples:
        >>> norm = tripod.layers.UnitNormalization()
        >>> print(np.round(tripod.ops.convert_to_numpy(norm(np.array([[3.0, 4.0]]))), 3))
        [[0.6 0.8]]
        >>> x = np.ones((1, 2, 2))
        >>> y = tripod.layers.UnitNormalization(axis=[1, 2])(x)  # norm over 4 entries: 2
        >>> print(tripod.ops.convert_to_numpy(y)[0])
        [[0.5 0.5]
         [0.5 0.5]]
    """

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
