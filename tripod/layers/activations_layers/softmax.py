"""`Softmax`: normalized exponentials along an axis (or axes), with an optional mask."""

from tripod.backends import active
from tripod.layers.layer import Layer

ops = active()


def _large_negative(dtype):
    """A value whose exponential is 0 in `dtype` but that stays finite (-1e9, or -3e4 in
    float16)."""
    return -3e4 if dtype == "float16" else -1e9


class Softmax(Layer):
    """The softmax of its input along `axis`: `exp(x) / sum(exp(x))`, each slice summing to 1.

    The output has the input's shape. Called with a boolean `mask` (same shape as the input,
    False where a position is padding), the masked positions get probability 0 and the others
    share the whole mass.

    Args:
        axis: int, or tuple/list of ints, the axis (axes) normalized over; default -1.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Examples:
        >>> softmax = tripod.layers.Softmax()
        >>> print(tripod.ops.convert_to_numpy(softmax(np.zeros((1, 4)))))
        [[0.25 0.25 0.25 0.25]]
        >>> mask = np.array([[True, True, False, False]])
        >>> print(tripod.ops.convert_to_numpy(softmax(np.zeros((1, 4)), mask=mask)))
        [[0.5 0.5 0.  0. ]]
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis
        self.supports_masking = True

    def call(self, inputs, mask=None):
        if mask is not None:
            mask = ops.cast(mask, ops.dtype(inputs))
            penalty = ops.multiply(ops.subtract(1.0, mask), _large_negative(ops.dtype(inputs)))
            inputs = ops.add(inputs, penalty)
        if isinstance(self.axis, (tuple, list)):
            outputs = ops.exp(
                ops.subtract(inputs, ops.logsumexp(inputs, axis=self.axis, keepdims=True))
            )
        else:
            outputs = ops.softmax(inputs, axis=self.axis)
        return outputs if mask is None else ops.multiply(outputs, mask)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}
