"""`ActivityRegularization`: passes its input through and adds an L1/L2 penalty on it as a loss."""

from tripod.layers import regularizers
from tripod.layers.layer import Layer


class ActivityRegularization(Layer):
    """Identity; each call adds (l1 * sum|x| + l2 * sum x^2) / batch size through `add_loss`
    (the base layer's activity-regularizer hook)."""

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
