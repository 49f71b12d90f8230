"""`ActivityRegularization`: passes its input through and adds an L1/L2 penalty on it as a loss."""

from tripod.layers import regularizers
from tripod.layers.layer import Layer


class ActivityRegularization(Layer):
    """Passes its input through unchanged and adds an L1/L2 penalty on it to the layer's losses.

    Each call adds `(l1 * sum(|x|) + l2 * sum(x ** 2)) / batch_size` to `losses` (through the
    base layer's activity-regularizer hook), which training adds to the model's loss.

    Args:
        l1: float >= 0, the L1 factor (default 0).
        l2: float >= 0, the L2 factor (default 0).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Examples:
        >>> layer = tripod.layers.ActivityRegularization(l1=0.1)
        >>> print(tripod.ops.convert_to_numpy(layer(np.ones((2, 3)))))
        [[1. 1. 1.]
         [1. 1. 1.]]
        >>> round(float(tripod.ops.convert_to_numpy(layer.losses[0])), 4)  # 0.1 * 6 / 2
        0.3
    """

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1 = l1
        self.l2 = l2
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "l1": self.l1, "l2": self.l2}
