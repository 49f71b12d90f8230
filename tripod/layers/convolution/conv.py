"""`Conv1D`, `Conv2D`, `Conv3D`: activation(conv(inputs, kernel) + bias), optionally grouped."""

from tripod.backends import active
from tripod.backends.common import conv as conv_shapes
from tripod.layers import weight_settings
from tripod.layers.convolution import _arguments as args
from tripod.layers.convolution.base_conv import _BaseConv

ops = active()


class _Conv(_BaseConv):
    """A convolution of any rank; the kernel is (spatial..., in_channels / groups, filters)."""

    def __init__(
        self,
        rank,
        *,
        filters,
        groups,
        kernel_initializer,
        kernel_regularizer,
        kernel_constraint,
        **kwargs,
    ):
        paddings = ("valid", "same", "causal") if rank == 1 else ("valid", "same")
        super().__init__(rank, paddings=paddings, **kwargs)
        self.filters = args.positive_int_arg(self, filters, "filters")
        self.groups = args.positive_int_arg(self, groups, "groups")
        if filters % groups:
            raise ValueError(
                f"{type(self).__name__} '{self.name}': filters must be divisible by groups, "
                f"received filters={filters} and groups={groups}."
            )
        weight_settings.resolve(
            self, "kernel", kernel_initializer, kernel_regularizer, kernel_constraint
        )
        # 'causal' (1D only) = pad the start by the dilated kernel span - 1, then 'valid'.
        self._causal_extra = 0
        self._causal_pad = None
        self._op_padding = self.padding
        if self.padding == "causal":
            self._causal_extra = (
                conv_shapes.effective_kernel_size(self.kernel_size[0], self.dilation_rate[0]) - 1
            )
            time_axis = 2 if self.data_format == "channels_first" else 1
            self._causal_pad = [(0, 0)] * 3
            self._causal_pad[time_axis] = (self._causal_extra, 0)
            self._op_padding = "valid"

    def build(self, input_shape):
        channels = self._input_channels(input_shape)
        if channels % self.groups:
            raise ValueError(
                f"{type(self).__name__} '{self.name}': the number of input channels must be "
                f"divisible by groups={self.groups}, received inputs of shape "
                f"{tuple(input_shape)} ({channels} channels)."
            )
        self.kernel = weight_settings.add(
            self, "kernel", self.kernel_size + (channels // self.groups, self.filters)
        )
        self._build_bias(self.filters)

    def _convolve(self, inputs, bias=None):
        x = inputs if self._causal_pad is None else ops.pad(inputs, self._causal_pad)
        window = (self.strides, self._op_padding, self.data_format, self.dilation_rate)
        if bias is None:
            return ops.conv(x, self.kernel.value, *window)
        return ops.conv_with_bias(x, self.kernel.value, bias, *window)

    def _biased_convolution(self, inputs):
        # one op: torch adds the bias inside its convolution kernel, as nn.Conv2d does
        return self._convolve(inputs, None if self.bias is None else self.bias.value)

    def _output_channels(self, channels):
        return self.filters

    def _output_length(self, i, n):
        return conv_shapes.conv_output_length(
            n + self._causal_extra,
            self.kernel_size[i],
            self.strides[i],
            self._op_padding,
            self.dilation_rate[i],
        )

    def get_config(self):
        return {
            **super().get_config(),
            "filters": self.filters,
            "groups": self.groups,
            **weight_settings.config(self, "kernel"),
        }


class Conv1D(_Conv):
    """1D convolution over sequences: `(batch, steps, channels)` by default.

    The kernel has shape `(k, channels / groups, filters)`; the output has `filters` channels.
    Arguments as in `Conv2D`, with one int per tuple, plus "causal" padding.

    Args:
        filters: int > 0, the number of output channels.
        kernel_size: int or tuple of 1 int, the window's length.
        strides: int or tuple of 1 int, the step between windows (default 1).
        padding: "valid" (no padding), "same" (zero padding: with stride 1 the output keeps the
            input's length) or "causal" (zero padding at the start only: output step t sees
            input steps up to t, for autoregressive models).
        data_format: "channels_last" (batch, steps, channels) or "channels_first"
            (batch, channels, steps); default `tripod.config.image_data_format()`.
        dilation_rate: int or tuple of 1 int, the spacing of the kernel's taps (default 1).
        groups: int, split the input channels into that many groups, each convolved with its
            own `filters / groups` filters; both channel counts must divide by it.
        activation: an activation (or its name) applied to the output; default None.
        use_bias: bool, add a bias per filter (default True).
        kernel_initializer: initializer of the kernel; default "glorot_uniform".
        bias_initializer: initializer of the bias; default "zeros".
        kernel_regularizer: regularizer of the kernel.
        bias_regularizer: regularizer of the bias.
        activity_regularizer: regularizer of the output.
        kernel_constraint: constraint applied to the kernel after each update.
        bias_constraint: constraint applied to the bias after each update.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: an invalid argument (e.g. `filters` not positive, an unknown `padding`, or
            channels that `groups` does not divide), named in the message.

    Examples:
        >>> conv = tripod.layers.Conv1D(1, 2, kernel_initializer="ones")
        >>> x = np.arange(4.0).reshape(1, 4, 1)
        >>> print(tripod.ops.convert_to_numpy(conv(x))[0, :, 0])
        [1. 3. 5.]
        >>> causal = tripod.layers.Conv1D(8, 3, padding="causal")
        >>> tuple(causal(np.zeros((2, 10, 4))).shape)
        (2, 10, 8)
    """

    def __init__(
        self,
        filters,
        kernel_size,
        strides=1,
        padding="valid",
        data_format=None,
        dilation_rate=1,
        groups=1,
        activation=None,
        use_bias=True,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
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
            groups=groups,
            activation=activation,
            use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            kernel_constraint=kernel_constraint,
            bias_constraint=bias_constraint,
            **kwargs,
        )


class Conv2D(_Conv):
    """2D convolution over images: `(batch, height, width, channels)` by default.

    The kernel has shape `(kh, kw, channels / groups, filters)` (Keras 3's layout, whatever the
    backend); the output has `filters` channels and spatial sizes set by `padding`, `strides`
    and `dilation_rate`.

    Args:
        filters: int > 0, the number of output channels.
        kernel_size: int or tuple of 2 ints, the window's height and width.
        strides: int or tuple of 2 ints, the step between windows (default 1).
        padding: "valid" (no padding: the output shrinks) or "same" (zero padding: with
            stride 1 the output keeps the input's size).
        data_format: "channels_last" (batch, height, width, channels) or "channels_first"
            (batch, channels, height, width); default `tripod.config.image_data_format()`.
        dilation_rate: int or tuple of 2 ints, the spacing of the kernel's taps (default 1).
        groups: int, split the input channels into that many groups, each convolved with its
            own `filters / groups` filters; both channel counts must divide by it.
        activation: an activation (or its name) applied to the output; default None.
        use_bias: bool, add a bias per filter (default True).
        kernel_initializer: initializer of the kernel; default "glorot_uniform".
        bias_initializer: initializer of the bias; default "zeros".
        kernel_regularizer: regularizer of the kernel.
        bias_regularizer: regularizer of the bias.
        activity_regularizer: regularizer of the output.
        kernel_constraint: constraint applied to the kernel after each update.
        bias_constraint: constraint applied to the bias after each update.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: an invalid argument (e.g. `filters` not positive, an unknown `padding`, or
            channels that `groups` does not divide), named in the message.

    Examples:
        >>> conv = tripod.layers.Conv2D(8, 3, strides=2, padding="same", activation="relu")
        >>> tuple(conv(np.zeros((1, 28, 28, 3))).shape)
        (1, 14, 14, 8)
        >>> tuple(conv.kernel.shape)
        (3, 3, 3, 8)
    """

    def __init__(
        self,
        filters,
        kernel_size,
        strides=(1, 1),
        padding="valid",
        data_format=None,
        dilation_rate=(1, 1),
        groups=1,
        activation=None,
        use_bias=True,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
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
            groups=groups,
            activation=activation,
            use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            kernel_constraint=kernel_constraint,
            bias_constraint=bias_constraint,
            **kwargs,
        )


class Conv3D(_Conv):
    """3D convolution over volumes: `(batch, depth, height, width, channels)` by default.

    The kernel has shape `(kd, kh, kw, channels / groups, filters)`; the output has `filters`
    channels. Arguments as in `Conv2D`, with 3 ints per tuple.

    Args:
        filters: int > 0, the number of output channels.
        kernel_size: int or tuple of 3 ints, the window's depth, height and width.
        strides: int or tuple of 3 ints, the step between windows (default 1).
        padding: "valid" (no padding: the output shrinks) or "same" (zero padding: with
            stride 1 the output keeps the input's size).
        data_format: "channels_last" (batch, depth, height, width, channels) or
            "channels_first" (batch, channels, depth, height, width); default
            `tripod.config.image_data_format()`.
        dilation_rate: int or tuple of 3 ints, the spacing of the kernel's taps (default 1).
        groups: int, split the input channels into that many groups, each convolved with its
            own `filters / groups` filters; both channel counts must divide by it.
        activation: an activation (or its name) applied to the output; default None.
        use_bias: bool, add a bias per filter (default True).
        kernel_initializer: initializer of the kernel; default "glorot_uniform".
        bias_initializer: initializer of the bias; default "zeros".
        kernel_regularizer: regularizer of the kernel.
        bias_regularizer: regularizer of the bias.
        activity_regularizer: regularizer of the output.
        kernel_constraint: constraint applied to the kernel after each update.
        bias_constraint: constraint applied to the bias after each update.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: an invalid argument (e.g. `filters` not positive, an unknown `padding`, or
            channels that `groups` does not divide), named in the message.

    Examples:
        >>> conv = tripod.layers.Conv3D(4, 3, padding="same")
        >>> tuple(conv(np.zeros((1, 4, 4, 4, 2))).shape)
        (1, 4, 4, 4, 4)
        >>> tuple(conv.kernel.shape)
        (3, 3, 3, 2, 4)
    """

    def __init__(
        self,
        filters,
        kernel_size,
        strides=(1, 1, 1),
        padding="valid",
        data_format=None,
        dilation_rate=(1, 1, 1),
        groups=1,
        activation=None,
        use_bias=True,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        **kwargs,
    ):
        super().__init__(
            3,
            filters=filters,
            kernel_size=kernel_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            dilation_rate=dilation_rate,
            groups=groups,
            activation=activation,
            use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            kernel_constraint=kernel_constraint,
            bias_constraint=bias_constraint,
            **kwargs,
        )


Convolution1D = Conv1D
Convolution2D = Conv2D
Convolution3D = Conv3D
