"""`DepthwiseConv1D`, `DepthwiseConv2D`: each input channel convolved with its own
`depth_multiplier` filters (no mixing across channels)."""

from tripod.backends import active
from tripod.layers import weight_settings
from tripod.layers.convolution import _arguments as args
from tripod.layers.convolution.base_conv import _BaseConv

ops = active()


class _DepthwiseConv(_BaseConv):
    """A depthwise convolution of any rank; the kernel is (spatial..., channels, multiplier)."""

    def __init__(
        self,
        rank,
        *,
        depth_multiplier,
        depthwise_initializer,
        depthwise_regularizer,
        depthwise_constraint,
        **kwargs,
    ):
        super().__init__(rank, **kwargs)
        self.depth_multiplier = args.positive_int_arg(self, depth_multiplier, "depth_multiplier")
        weight_settings.resolve(
            self, "depthwise", depthwise_initializer, depthwise_regularizer, depthwise_constraint
        )

    def build(self, input_shape):
        channels = self._input_channels(input_shape)
        self.kernel = weight_settings.add(
            self, "depthwise", self.kernel_size + (channels, self.depth_multiplier), name="kernel"
        )
        self._build_bias(channels * self.depth_multiplier)

    def _convolve(self, inputs):
        return ops.depthwise_conv(
            inputs,
            self.kernel.value,
            self.strides,
            self.padding,
            self.data_format,
            self.dilation_rate,
        )

    def _output_channels(self, channels):
        return channels * self.depth_multiplier

    def get_config(self):
        return {
            **super().get_config(),
            "depth_multiplier": self.depth_multiplier,
            **weight_settings.config(self, "depthwise"),
        }


class DepthwiseConv1D(_DepthwiseConv):
    """1D depthwise convolution over (batch, steps, channels)."""

    def __init__(
        self,
        kernel_size,
        strides=1,
        padding="valid",
        depth_multiplier=1,
        data_format=None,
        dilation_rate=1,
        activation=None,
        use_bias=True,
        depthwise_initializer="glorot_uniform",
        bias_initializer="zeros",
        depthwise_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        depthwise_constraint=None,
        bias_constraint=None,
        **kwargs,
    ):
        super().__init__(
            1,
            kernel_size=kernel_size,
            strides=strides,
            padding=padding,
            depth_multiplier=depth_multiplier,
            data_format=data_format,
            dilation_rate=dilation_rate,
            activation=activation,
            use_bias=use_bias,
            depthwise_initializer=depthwise_initializer,
            bias_initializer=bias_initializer,
            depthwise_regularizer=depthwise_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            depthwise_constraint=depthwise_constraint,
            bias_constraint=bias_constraint,
            **kwargs,
        )


class DepthwiseConv2D(_DepthwiseConv):
    """2D depthwise convolution over (batch, height, width, channels)."""

    def __init__(
        self,
        kernel_size,
        strides=(1, 1),
        padding="valid",
        depth_multiplier=1,
        data_format=None,
        dilation_rate=(1, 1),
        activation=None,
        use_bias=True,
        depthwise_initializer="glorot_uniform",
        bias_initializer="zeros",
        depthwise_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        depthwise_constraint=None,
        bias_constraint=None,
        **kwargs,
    ):
        super().__init__(
            2,
            kernel_size=kernel_size,
            strides=strides,
            padding=padding,
            depth_multiplier=depth_multiplier,
            data_format=data_format,
            dilation_rate=dilation_rate,
            activation=activation,
            use_bias=use_bias,
            depthwise_initializer=depthwise_initializer,
            bias_initializer=bias_initializer,
            depthwise_regularizer=depthwise_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            depthwise_constraint=depthwise_constraint,
            bias_constraint=bias_constraint,
            **kwargs,
        )
