"""`LeakyReLU`: x where x >= 0, `negative_slope * x` elsewhere."""

from tripod.backends import active
from tripod.layers.layer import Layer

ops = active()


class LeakyReLU(Layer):
    """A ReLU with a small slope for negative inputs: x where x >= 0, `negative_slope * x`
    elsewhere.

    Elementwise: the output has the input's shape.

    Args:
        negative_slope: float >= 0, the slope below zero; default 0.3.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...); Keras 2's `alpha` is
            accepted as a synonym of `negative_slope` (and wins when both are given).

    Raises:
        ValueError: `negative_slope` is None or negative.

    Examples:
        >>> leaky = tripod.layers.LeakyReLU(negative_slope=0.5)
        >>> print(tripod.ops.convert_to_numpy(leaky(np.array([-2.0, 0.0, 3.0]))))
        [-1.  0.  3.]
    """

    def __init__(self, negative_slope=0.3, **kwargs):
        negative_slope = kwargs.pop("alpha", negative_slope)
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError(
                f"LeakyReLU '{self.name}': negative_slope must be a non-negative float, received "
                f"negative_slope={negative_slope}."
            )
        self.negative_slope = negative_slope
        self.supports_masking = True

    def call(self, inputs):
        return ops.leaky_relu(inputs, negative_slope=self.negative_slope)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "negative_slope": self.negative_slope}
