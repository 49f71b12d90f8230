"""`Identity`: returns its inputs unchanged."""

from tripod.layers.layer import Layer


class Identity(Layer):
    """A placeholder layer that returns its input (any structure) as it is."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape
