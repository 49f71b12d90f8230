"""`ELU`: x where x > 0, `alpha * (exp(x) - 1)` elsewhere."""

from tripod.backends import active
from tripod.layers.layer import Layer

ops = active()


class ELU(Layer):
    """The exponential linear unit: x where x > 0, `alpha * (exp(x) - 1)` elsewhere.

    Elementwise: the output has the input's shape. Negative inputs saturate at `-alpha`.

    Args:
        alpha: float, the scale of the negative part (the value large negative inputs approach);
            default 1.0.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Examples:
        >>> elu = tripod.layers.ELU(alpha=2.0)
        >>> print(tripod.ops.convert_to_numpy(elu(np.array([-100.0, 0.0, 3.0]))))
        [-2.  0.  3.]
    """

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = alpha
        self.supports_masking = True

    def call(self, inputs):
        return ops.elu(inputs, alpha=self.alpha)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "alpha": self.alpha}
