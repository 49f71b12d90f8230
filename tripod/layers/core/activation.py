"""`Activation`: applies an activation function."""

from tripod.layers import activations
from tripod.layers.layer import Layer


class Activation(Layer):
    """Applies an activation function to its input; the output has the input's shape.

    Args:
        activation: the activation: a function, its name (e.g. "relu", "sigmoid", "softmax")
            or its serialized config; None is the identity.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `activation` is an unknown name or cannot be read as an activation.

    Examples:
        >>> relu = tripod.layers.Activation("relu")
        >>> print(tripod.ops.convert_to_numpy(relu(np.array([-2.0, 0.0, 3.0]))))
        [0. 0. 3.]
    """

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
