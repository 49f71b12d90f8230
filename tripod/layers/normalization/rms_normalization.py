"""`RMSNormalization`: divide by the root mean square over the given axes, then scale."""

from tripod.backends import active
from tripod.layers.layer import Layer
from tripod.layers.normalization import _axes

ops = active()


class RMSNormalization(Layer):
    """Divides by the root mean square over `axis`, then multiplies by a learned `scale`.

    Computes `x / sqrt(mean(x ** 2 over axis) + epsilon) * scale` for each example, without
    subtracting a mean (unlike `LayerNormalization`). `scale` starts at ones and has one entry
    per position of the normalized axes. The output has the input's shape.

    Args:
        axis: int or list of ints, the axes the mean square is taken over (default -1).
        epsilon: float > 0 added to the mean square (default 1e-6).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `axis` is not an int or a list of ints, or `epsilon` is not positive; on
            the first call, an axis is out of range for the input.

    Examples:
        >>> norm = tripod.layers.RMSNormalization()
        >>> x = np.array([[2.0, -2.0, 2.0, -2.0]])  # root mean square 2
        >>> print(np.round(tripod.ops.convert_to_numpy(norm(x)), 3))
        [[ 1. -1.  1. -1.]]
        >>> tuple(norm.scale.shape)
        (4,)
    """

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
