"""`ELU`: x where x > 0, `alpha * (exp(x) - 1)` elsewhere."""

from tripod.backends import active
from tripod.layers.layer import Layer

ops = active()


class ELU(Layer):
    """The exponential linear unit."""

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
