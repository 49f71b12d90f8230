"""`Activation`: applies an activation function."""

from tripod.layers import activations
from tripod.layers.layer import Layer


class Activation(Layer):
    """Applies `activation` (a name, config or callable) to its input."""

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "activation": activations.serialize(self.activation)}
