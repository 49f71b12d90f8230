"""`_BaseConv`: what every convolution layer shares (window arguments, bias, activation, shapes).

A subclass creates its kernels in `build` (after `_input_channels`, before `_build_bias`),
computes the convolution in `_convolve`, gives the output length of one spatial dim in
`_output_length` and its output channel count in `_output_channels`.
"""

from tripod.backends import active
from tripod.backends.common import conv as conv_shapes
from tripod.layers import activations, weight_settings
from tripod.layers.convolution import _arguments as args
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer

ops = active()


class _BaseConv(Layer):
    """The shared part of Conv, ConvTranspose, DepthwiseConv and SeparableConv layers."""

    def __init__(
        self,
        rank,
        *,
        kernel_size,
        strides,
        padding,
        data_format,
        dilation_rate,
        activation,
        use_bias,
        bias_initializer,
        bias_regularizer,
        bias_constraint,
        activity_regularizer=None,
        paddings=("valid", "same"),
        **kwargs,
    ):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.rank = rank
        self.kernel_size = args.tuple_arg(self, kernel_size, rank, "kernel_size")
        self.strides = args.tuple_arg(self, strides, rank, "strides")
        self.padding = args.padding_arg(self, padding, paddings)
        self.data_format = args.data_format_arg(self, data_format)
        self.dilation_rate = args.tuple_arg(self, dilation_rate, rank, "dilation_rate")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(
                f"{type(self).__name__} '{self.name}': strides > 1 cannot be combined with "
                f"dilation_rate > 1, received strides={self.strides} and "
                f"dilation_rate={self.dilation_rate}."
            )
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        weight_settings.resolve(self, "bias", bias_initializer, bias_regularizer, bias_constraint)
        self._channel_axis = 1 if self.data_format == "channels_first" else -1
        self.input_spec = InputSpec(ndim=rank + 2)

    def _input_channels(self, input_shape):
        """The input channel count, checked; later calls must keep it."""
        args.check_rank(self, input_shape, self.rank)
        channels = args.known_channels(self, input_shape, self.data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={self._channel_axis: channels})
        return channels

    def _build_bias(self, channels):
        """The bias weight (when `use_bias`) and what `call` needs to add it."""
        self.bias = weight_settings.add(self, "bias", (channels,)) if self.use_bias else None
        # channels_first: the bias broadcasts as (channels, 1, ..., 1) against
        # (batch, channels, ...)
        self._bias_shape = (channels,) + (1,) * self.rank if self._channel_axis == 1 else None
        self._linear = self.activation is activations.linear
        self.built = True

    def call(self, inputs):
        x = self._biased_convolution(inputs)
        return x if self._linear else self.activation(x)

    def _biased_convolution(self, inputs):
        """The convolution plus the bias (when there is one)."""
        x = self._convolve(inputs)
        if self.bias is None:
            return x
        bias = self.bias.value
        return ops.add(x, bias if self._bias_shape is None else ops.reshape(bias, self._bias_shape))

    def compute_output_shape(self, input_shape):
        args.check_rank(self, input_shape, self.rank)
        channels = args.known_channels(self, input_shape, self.data_format)
        return args.output_shape(
            self,
            input_shape,
            self.data_format,
            self._output_channels(channels),
            self._output_length,
        )

    def _output_length(self, i, n):
        """The output length of spatial dim `i` for an input of length `n` (plain convolution)."""
        return conv_shapes.conv_output_length(
            n, self.kernel_size[i], self.strides[i], self.padding, self.dilation_rate[i]
        )

    def get_config(self):
        return {
            **super().get_config(),
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            **weight_settings.config(self, "bias", "activity"),
        }
