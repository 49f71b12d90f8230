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
    """1D depthwise convolution over sequences: `(batch, steps, channels)` by default.

    Each input channel is convolved with its own `depth_multiplier` filters, with no mixing
    across channels: the output has `channels * depth_multiplier` channels. The kernel
    (`self.kernel`) has shape `(k, channels, depth_multiplier)`.

    Args:
        kernel_size: int or tuple of 1 int, the window's length.
        strides: int or tuple of 1 int, the step between windows (default 1).
        padding: "valid" (no padding) or "same" (zero padding: with stride 1 the output keeps
            the input's length).
        depth_multiplier: int > 0, the number of filters per input channel (default 1).
        data_format: "channels_last" (batch, steps, channels) or "channels_first"
            (batch, channels, steps); default `tripod.config.image_data_format()`.
        dilation_rate: int or tuple of 1 int, the spacing of the kernel's taps (default 1).
        activation: an activation (or its name) applied to the output; default None.
        use_bias: bool, add a bias per output channel (default True).
        depthwise_initializer: initializer of the kernel; default "glorot_uniform".
        bias_initializer: initializer of the bias; default "zeros".
        depthwise_regularizer: regularizer of the kernel.
        bias_regularizer: regularizer of the bias.
        activity_regularizer: regularizer of the output.
        depthwise_constraint: constraint applied to the kernel after each update.
        bias_constraint: constraint applied to the bias after each update.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: an invalid argument (e.g. `depth_multiplier` not positive, an unknown
            `padding`, or strides and dilation both above 1), named in the message.

    Examples:
        >>> conv = tripod.layers.DepthwiseConv1D(2, depthwise_initializer="ones")
        >>> x = np.arange(8.0).reshape(1, 4, 2)  # channel 0: 0, 2, 4, 6; channel 1: 1, 3, 5, 7
        >>> print(tripod.ops.convert_to_numpy(conv(x))[0])
        [[ 2.  4.]
         [ 6.  8.]
         [10. 12.]]
    """

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
    """2D depthwise convolution over images: `(batch, height, width, channels)` by default.

    Each input channel is convolved with its own `depth_multiplier` filters, with no mixing
    across channels (the first half of a separable convolution): the output has
    `channels * depth_multiplier` channels. The kernel (`self.kernel`) has shape
    `(kh, kw, channels, depth_multiplier)`.

    Args:
        kernel_size: int or tuple of 2 ints, the window's height and width.
        strides: int or tuple of 2 ints, the step between windows (default 1).
        padding: "valid" (no padding: the output shrinks) or "same" (zero padding: with
            stride 1 the output keeps the input's size).
        depth_multiplier: int > 0, the number of filters per input channel (default 1).
        data_format: "channels_last" (batch, height, width, channels) or "channels_first"
            (batch, channels, height, width); default `tripod.config.image_data_format()`.
        dilation_rate: int or tuple of 2 ints, the spacing of the kernel's taps (default 1).
        activation: an activation (or its name) applied to the output; default None.
        use_bias: bool, add a bias per output channel (default True).
        depthwise_initializer: initializer of the kernel; default "glorot_uniform".
        bias_initializer: initializer of the bias; default "zeros".
        depthwise_regularizer: regularizer of the kernel.
        bias_regularizer: regularizer of the bias.
        activity_regularizer: regularizer of the output.
        depthwise_constraint: constraint applied to the kernel after each update.
        bias_constraint: constraint applied to the bias after each update.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: an invalid argument (e.g. `depth_multiplier` not positive, an unknown
            `padding`, or strides and dilation both above 1), named in the message.

    Examples:
        >>> conv = tripod.layers.DepthwiseConv2D(3, depth_multiplier=2)
        >>> tuple(conv(np.zeros((1, 5, 5, 3))).shape)
        (1, 3, 3, 6)
        >>> tuple(conv.kernel.shape)
        (3, 3, 3, 2)
    """

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
