"""`Flatten`: collapses every axis but the batch axis."""

import math

from tripod.backends import active, config
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer

ops = active()


class Flatten(Layer):
    """Flattens each example to one axis: `(batch, d1, d2, ...)` -> `(batch, d1 * d2 * ...)`.

    "channels_first" inputs are flattened in "channels_last" order, so a model's weights after
    `Flatten` do not depend on the data format.

    Args:
        data_format: "channels_last" or "channels_first", the layout of image inputs; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, ...).

    Examples:
        >>> tuple(tripod.layers.Flatten()(np.zeros((2, 3, 4, 5))).shape)
        (2, 60)
        >>> x = tripod.Input((7, 7, 32))
        >>> tripod.layers.Flatten()(x).shape
        (None, 1568)
    """

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = config.standardize_data_format(data_format)
        self.input_spec = InputSpec(min_ndim=1)
        self._channels_first = self.data_format == "channels_first"

    def call(self, inputs):
        shape = ops.shape(inputs)
        if self._channels_first and len(shape) > 2:
            inputs = ops.transpose(inputs, (0,) + tuple(range(2, len(shape))) + (1,))
        rest = shape[1:]
        if all(isinstance(d, int) for d in rest):
            return ops.reshape(inputs, (-1, math.prod(rest)))
        return ops.reshape(inputs, (ops.shape(inputs)[0], -1))

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        size = None if any(d is None for d in rest) else math.prod(rest)
        return (input_shape[0], size)

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format}
