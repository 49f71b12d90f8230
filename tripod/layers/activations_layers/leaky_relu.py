"""`LeakyReLU`: x where x >= 0, `negative_slope * x` elsewhere."""

from tripod.backends import active
from tripod.layers.layer import Layer

ops = active()


class LeakyReLU(Layer):
    """A ReLU with a small slope for negative inputs (Keras 2's `alpha` is accepted too)."""

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
