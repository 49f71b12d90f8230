"""`SeparableConv1D`, `SeparableConv2D`: a depthwise convolution, then a 1x1 convolution
mixing the channels into `filters` outputs."""

from tripod.backends import active
from tripod.layers import weight_settings
from tripod.layers.convolution import _arguments as args
from tripod.layers.convolution.base_conv import _BaseConv

ops = active()


class _SeparableConv(_BaseConv):
    """A separable convolution of any rank: depthwise_kernel (spatial..., channels, multiplier),
    pointwise_kernel (1..., channels * multiplier, filters)."""

    def __init__(
        self,
        rank,
        *,
        filters,
        depth_multiplier,
        depthwise_initializer,
        pointwise_initializer,
        depthwise_regularizer,
        pointwise_regularizer,
        depthwise_constraint,
        pointwise_constraint,
        **kwargs,
    ):
        super().__init__(rank, **kwargs)
        self.filters = args.positive_int_arg(self, filters, "filters")
        self.depth_multiplier = args.positive_int_arg(self, depth_multiplier, "depth_multiplier")
        weight_settings.resolve(
            self, "depthwise", depthwise_initializer, depthwise_regularizer, depthwise_constraint
        )
        weight_settings.resolve(
            self, "pointwise", pointwise_initializer, pointwise_regularizer, pointwise_constraint
        )

    def build(self, input_shape):
        channels = self._input_channels(input_shape)
        self.depthwise_kernel = weight_settings.add(
            self,
            "depthwise",
            self.kernel_size + (channels, self.depth_multiplier),
            name="depthwise_kernel",
        )
        self.pointwise_kernel = weight_settings.add(
            self,
            "pointwise",
            (1,) * self.rank + (channels * self.depth_multiplier, self.filters),
            name="pointwise_kernel",
        )
        self._build_bias(self.filters)

    def _convolve(self, inputs):
        return ops.separable_conv(
            inputs,
            self.depthwise_kernel.value,
            self.pointwise_kernel.value,
            self.strides,
            self.padding,
            self.data_format,
            self.dilation_rate,
        )

    def _output_channels(self, channels):
        return self.filters

    def get_config(self):
        return {
            **super().get_config(),
            "filters": self.filters,
            "depth_multiplier": self.depth_multiplier,
            **weight_settings.config(self, "depthwise", "pointwise"),
        }


class SeparableConv1D(_SeparableConv):
    """1D separable convolution over sequences: `(batch, steps, channels)` by default.

    A depthwise convolution (each channel with its own `depth_multiplier` filters), then a
    pointwise (length-1) convolution mixing the channels into `filters` outputs: fewer weights
    than a `Conv1D` of the same window. The kernels are `depthwise_kernel`
    `(k, channels, depth_multiplier)` and `pointwise_kernel`
    `(1, channels * depth_multiplier, filters)`.

    Args:
        filters: int > 0, the number of output channels.
        kernel_size: int or tuple of 1 int, the depthwise window's length.
        strides: int or tuple of 1 int, the step between windows (default 1).
        padding: "valid" (no padding) or "same" (zero padding: with stride 1 the output keeps
            the input's length).
        data_format: "channels_last" (batch, steps, channels) or "channels_first"
            (batch, channels, steps); default `tripod.config.image_data_format()`.
        dilation_rate: int or tuple of 1 int, the spacing of the kernel's taps (default 1).
        depth_multiplier: int > 0, the number of depthwise filters per input channel
            (default 1).
        activation: an activation (or its name) applied to the output; default None.
        use_bias: bool, add a bias per filter (default True).
        depthwise_initializer: initializer of the depthwise kernel; default "glorot_uniform".
        pointwise_initializer: initializer of the pointwise kernel; default "glorot_uniform".
        bias_initializer: initializer of the bias; default "zeros".
        depthwise_regularizer: regularizer of the depthwise kernel.
        pointwise_regularizer: regularizer of the pointwise kernel.
        bias_regularizer: regularizer of the bias.
        activity_regularizer: regularizer of the output.
        depthwise_constraint: constraint applied to the depthwise kernel after each update.
        pointwise_constraint: constraint applied to the pointwise kernel after each update.
        bias_constraint: constraint applied to the bias after each update.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: an invalid argument (e.g. `filters` or `depth_multiplier` not positive, an
            unknown `padding`, or strides and dilation both above 1), named in the message.

    Examples:
        >>> conv = tripod.layers.SeparableConv1D(8, 3, padding="same", depth_multiplier=2)
        >>> tuple(conv(np.zeros((2, 10, 4))).shape)
        (2, 10, 8)
        >>> tuple(conv.depthwise_kernel.shape), tuple(conv.pointwise_kernel.shape)
        ((3, 4, 2), (1, 8, 8))
    """

    def __init__(
        self,
        filters,
        kernel_size,
        strides=1,
        padding="valid",
        data_format=None,
        dilation_rate=1,
        depth_multiplier=1,
        activation=None,
        use_bias=True,
        depthwise_initializer="glorot_uniform",
        pointwise_initializer="glorot_uniform",
        bias_initializer="zeros",
        depthwise_regularizer=None,
        pointwise_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        depthwise_constraint=None,
        pointwise_constraint=None,
        bias_constraint=None,
        **kwargs,
    ):
        super().__init__(
            1,
            filters=filters,
            kernel_size=kernel_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            dilation_rate=dilation_rate,
            depth_multiplier=depth_multiplier,
            activation=activation,
            use_bias=use_bias,
            depthwise_initializer=depthwise_initializer,
            pointwise_initializer=pointwise_initializer,
            bias_initializer=bias_initializer,
            depthwise_regularizer=depthwise_regularizer,
            pointwise_regularizer=pointwise_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            depthwise_constraint=depthwise_constraint,
            pointwise_constraint=pointwise_constraint,
            bias_constraint=bias_constraint,
            **kwargs,
        )


class SeparableConv2D(_SeparableConv):
    """2D separable convolution over images: `(batch, height, width, channels)` by default.

    A depthwise convolution (each channel with its own `depth_multiplier` filters), then a
    pointwise 1x1 convolution mixing the channels into `filters` outputs: fewer weights than a
    `Conv2D` of the same window. The kernels are `depthwise_kernel`
    `(kh, kw, channels, depth_multiplier)` and `pointwise_kernel`
    `(1, 1, channels * depth_multiplier, filters)`.

    Args:
        filters: int > 0, the number of output channels.
        kernel_size: int or tuple of 2 ints, the depthwise window's height and width.
        strides: int or tuple of 2 ints, the step between windows (default 1).
        padding: "valid" (no padding: the output shrinks) or "same" (zero padding: with
            stride 1 the output keeps the input's size).
        data_format: "channels_last" (batch, height, width, channels) or "channels_first"
            (batch, channels, height, width); default `tripod.config.image_data_format()`.
        dilation_rate: int or tuple of 2 ints, the spacing of the kernel's taps (default 1).
        depth_multiplier: int > 0, the number of depthwise filters per input channel
            (default 1).
        activation: an activation (or its name) applied to the output; default None.
        use_bias: bool, add a bias per filter (default True).
        depthwise_initializer: initializer of the depthwise kernel; default "glorot_uniform".
        pointwise_initializer: initializer of the pointwise kernel; default "glorot_uniform".
        bias_initializer: initializer of the bias; default "zeros".
        depthwise_regularizer: regularizer of the depthwise kernel.
        pointwise_regularizer: regularizer of the pointwise kernel.
        bias_regularizer: regularizer of the bias.
        activity_regularizer: regularizer of the output.
        depthwise_constraint: constraint applied to the depthwise kernel after each update.
        pointwise_constraint: constraint applied to the pointwise kernel after each update.
        bias_constraint: constraint applied to the bias after each update.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: an invalid argument (e.g. `filters` or `depth_multiplier` not positive, an
            unknown `padding`, or strides and dilation both above 1), named in the message.

    Examples:
        >>> conv = tripod.layers.SeparableConv2D(8, 3, depth_multiplier=2)
        >>> tuple(conv(np.zeros((1, 6, 6, 3))).shape)
        (1, 4, 4, 8)
        >>> tuple(conv.depthwise_kernel.shape), tuple(conv.pointwise_kernel.shape)
        ((3, 3, 3, 2), (1, 1, 6, 8))
    """

    def __init__(
        self,
        filters,
        kernel_size,
        strides=(1, 1),
        padding="valid",
        data_format=None,
        dilation_rate=(1, 1),
        depth_multiplier=1,
        activation=None,
        use_bias=True,
        depthwise_initializer="glorot_uniform",
        pointwise_initializer="glorot_uniform",
        bias_initializer="zeros",
        depthwise_regularizer=None,
        pointwise_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        depthwise_constraint=None,
        pointwise_constraint=None,
        bias_constraint=None,
        **kwargs,
    ):
        super().__init__(
            2,
            filters=filters,
            kernel_size=kernel_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            dilation_rate=dilation_rate,
            depth_multiplier=depth_multiplier,
            activation=activation,
            use_bias=use_bias,
            depthwise_initializer=depthwise_initializer,
            pointwise_initializer=pointwise_initializer,
            bias_initializer=bias_initializer,
            depthwise_regularizer=depthwise_regularizer,
            pointwise_regularizer=pointwise_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            depthwise_constraint=depthwise_constraint,
            pointwise_constraint=pointwise_constraint,
            bias_constraint=bias_constraint,
            **kwargs,
        )


SeparableConvolution1D = SeparableConv1D
SeparableConvolution2D = SeparableConv2D
