"""`_BasePooling`: a max or average over sliding windows of the spatial dims."""

from tripod.backends.common import conv as conv_shapes
from tripod.layers.convolution import _arguments as args
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer


class _BasePooling(Layer):
    """Pools `pool_size` windows every `strides` (default: `pool_size`) with `pool_op`."""

    def __init__(self, rank, pool_op, *, pool_size, strides, padding, data_format, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self._pool_op = pool_op
        self.pool_size = args.tuple_arg(self, pool_size, rank, "pool_size")
        self.strides = (
            self.pool_size if strides is None else args.tuple_arg(self, strides, rank, "strides")
        )
        self.padding = args.padding_arg(self, padding)
        self.data_format = args.data_format_arg(self, data_format)
        self.input_spec = InputSpec(ndim=rank + 2)

    def call(self, inputs):
        return self._pool_op(inputs, self.pool_size, self.strides, self.padding, self.data_format)

    def compute_output_shape(self, input_shape):
        args.check_rank(self, input_shape, self.rank)
        channels = conv_shapes.channels(input_shape, self.data_format)
        return args.output_shape(self, input_shape, self.data_format, channels, self._output_length)

    def _output_length(self, i, n):
        return conv_shapes.conv_output_length(n, self.pool_size[i], self.strides[i], self.padding)

    def get_config(self):
        return {
            **super().get_config(),
            "pool_size": self.pool_size,
            "padding": self.padding,
            "strides": self.strides,
            "data_format": self.data_format,
        }
