"""Adaptive pooling: windows chosen so the output has a fixed spatial size, whatever the input's."""

from tripod.backends import active
from tripod.backends.common import conv as conv_shapes
from tripod.layers.convolution import _arguments as args
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer

ops = active()


class _AdaptivePooling(Layer):
    """Pools the spatial dims down to `output_size` with `pool_op` (adaptive max or average)."""

    def __init__(self, rank, pool_op, output_size, *, data_format, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self._pool_op = pool_op
        self.output_size = args.tuple_arg(self, output_size, rank, "output_size")
        self.data_format = args.data_format_arg(self, data_format)
        self.input_spec = InputSpec(ndim=rank + 2)

    def call(self, inputs):
        return self._pool_op(inputs, self.output_size, self.data_format)

    def compute_output_shape(self, input_shape):
        args.check_rank(self, input_shape, self.rank)
        channels = conv_shapes.channels(input_shape, self.data_format)
        return args.output_shape(self, input_shape, self.data_format, channels, self.output_size)

    def get_config(self):
        return {
            **super().get_config(),
            "output_size": self.output_size,
            "data_format": self.data_format,
        }


class AdaptiveAveragePooling1D(_AdaptivePooling):
    """Average pooling of the steps of (batch, steps, channels) inputs down to `output_size`."""

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(
            1, ops.adaptive_average_pool, output_size, data_format=data_format, **kwargs
        )


class AdaptiveAveragePooling2D(_AdaptivePooling):
    """Average pooling of the height and width of (batch, height, width, channels) inputs down
    to `output_size`."""

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(
            2, ops.adaptive_average_pool, output_size, data_format=data_format, **kwargs
        )


class AdaptiveAveragePooling3D(_AdaptivePooling):
    """Average pooling of the depth, height and width of 5D inputs down to `output_size`."""

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(
            3, ops.adaptive_average_pool, output_size, data_format=data_format, **kwargs
        )


class AdaptiveMaxPooling1D(_AdaptivePooling):
    """Max pooling of the steps of (batch, steps, channels) inputs down to `output_size`."""

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(1, ops.adaptive_max_pool, output_size, data_format=data_format, **kwargs)


class AdaptiveMaxPooling2D(_AdaptivePooling):
    """Max pooling of the height and width of (batch, height, width, channels) inputs down to
    `output_size`."""

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(2, ops.adaptive_max_pool, output_size, data_format=data_format, **kwargs)


class AdaptiveMaxPooling3D(_AdaptivePooling):
    """Max pooling of the depth, height and width of 5D inputs down to `output_size`."""

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(3, ops.adaptive_max_pool, output_size, data_format=data_format, **kwargs)
