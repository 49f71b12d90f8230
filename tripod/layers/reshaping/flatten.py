"""`Flatten`: collapses every axis but the batch axis."""

import math

from tripod.backends import active, config
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer

ops = active()


class Flatten(Layer):
    """(batch, ...) -> (batch, product of the other sizes); channels_first inputs are flattened
    in channels_last order, so the result does not depend on the data format."""

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
