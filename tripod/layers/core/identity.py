"""`Identity`: returns its inputs unchanged."""

from tripod.layers.layer import Layer


class Identity(Layer):
    """Returns its input (a tensor or any nested structure of them) unchanged.

    A placeholder: e.g. the branch of a model that a configuration switches off. Masks pass
    through.

    Args:
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Examples:
        >>> identity = tripod.layers.Identity()
        >>> print(tripod.ops.convert_to_numpy(identity(np.array([[1.0, 2.0]]))))
        [[1. 2.]]
        >>> identity(tripod.Input((5,))).shape
        (None, 5)
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape
