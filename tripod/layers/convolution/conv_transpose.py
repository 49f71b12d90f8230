"""`Conv1DTranspose`, `Conv2DTranspose`, `Conv3DTranspose`: transposed convolutions (the
gradient of a convolution with respect to its input), e.g. for learned upsampling."""

from tripod.backends import active
from tripod.backends.common import conv as conv_shapes
from tripod.layers import weight_settings
from tripod.layers.convolution import _arguments as args
from tripod.layers.convolution.base_conv import _BaseConv

ops = active()


class _ConvTranspose(_BaseConv):
    """A transposed convolution of any rank; the kernel is (spatial..., filters, in_channels)."""

    def __init__(
        self,
        rank,
        *,
        filters,
        output_padding,
        kernel_initializer,
        kernel_regularizer,
        kernel_constraint,
        **kwargs,
    ):
        super().__init__(rank, **kwargs)
        self.filters = args.positive_int_arg(self, filters, "filters")
        self.output_padding = self._check_output_padding(output_padding)
        weight_settings.resolve(
            self, "kernel", kernel_initializer, kernel_regularizer, kernel_constraint
        )

    def _check_output_padding(self, output_padding):
        """None, or one int per spatial dim in [0, stride)."""
        if output_padding is None:
            return None
        values = (
            (output_padding,) * self.rank
            if isinstance(output_padding, int)
            else tuple(output_padding)
        )
        if len(values) != self.rank or not all(
            isinstance(p, int) and 0 <= p < s for p, s in zip(values, self.strides)
        ):
            raise ValueError(
                f"{type(self).__name__} '{self.name}': output_padding must be {self.rank} "
                f"non-negative int(s), each smaller than its stride, received "
                f"output_padding={output_padding!r} with strides={self.strides}."
            )
        return values

    def build(self, input_shape):
        channels = self._input_channels(input_shape)
        self.kernel = weight_settings.add(
            self, "kernel", self.kernel_size + (self.filters, channels)
        )
        self._build_bias(self.filters)

    def _convolve(self, inputs):
        return ops.conv_transpose(
            inputs,
            self.kernel.value,
            self.strides,
            self.padding,
            self.output_padding,
            self.data_format,
            self.dilation_rate,
        )

    def _output_channels(self, channels):
        return self.filters

    def _output_length(self, i, n):
        return conv_shapes.conv_transpose_output_length(
            n,
            self.kernel_size[i],
            self.strides[i],
            self.padding,
            None if self.output_padding is None else self.output_padding[i],
            self.dilation_rate[i],
        )

    def get_config(self):
        return {
            **super().get_config(),
            "filters": self.filters,
            "output_padding": self.output_padding,
            **weight_settings.config(self, "kernel"),
        }


class Conv1DTranspose(_ConvTranspose):
    """1D transposed convolution over sequences: `(batch, steps, channels)` by default.

    The kernel has shape `(k, filters, channels)`. With "valid" padding an input of length n
    gives `n * strides + max(k - strides, 0)` steps (k the dilated kernel length); with "same",
    `n * strides`. Arguments as in `Conv2DTranspose`, with one int per tuple.

    Args:
        filters: int > 0, the number of output channels.
        kernel_size: int or tuple of 1 int, the window's length.
        strides: int or tuple of 1 int, the upsampling factor (default 1).
        padding: "valid" or "same".
        output_padding: int or tuple of 1 int, smaller than the stride: pins the output length
            to `(n - 1) * strides + k + output_padding` ("valid") or
            `(n - 1) * strides + k % 2 + output_padding` ("same"); default None, the lengths
            above.
        data_format: "channels_last" (batch, steps, channels) or "channels_first"
            (batch, channels, steps); default `tripod.config.image_data_format()`.
        dilation_rate: int or tuple of 1 int, the spacing of the kernel's taps (default 1).
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
        ValueError: an invalid argument (e.g. `filters` not positive, an unknown `padding`, an
            `output_padding` not smaller than its stride, or strides and dilation both above
            1), named in the message.

    Examples:
        >>> up = tripod.layers.Conv1DTranspose(1, 2, strides=2, kernel_initializer="ones")
        >>> print(tripod.ops.convert_to_numpy(up(np.array([[[1.0], [2.0]]])))[0, :, 0])
        [1. 1. 2. 2.]
    """

    def __init__(
        self,
        filters,
        kernel_size,
        strides=1,
        padding="valid",
        output_padding=None,
        data_format=None,
        dilation_rate=1,
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
            output_padding=output_padding,
            data_format=data_format,
            dilation_rate=dilation_rate,
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


class Conv2DTranspose(_ConvTranspose):
    """2D transposed convolution over images: `(batch, height, width, channels)` by default.

    The gradient of `Conv2D` with respect to its input, used for learned upsampling: each input
    pixel spreads a `kernel_size` window, `strides` apart, over the output. The kernel has
    shape `(kh, kw, filters, channels)` (Keras 3's layout, whatever the backend). Along each
    spatial axis, an input of size n gives `n * strides + max(k - strides, 0)` with "valid"
    padding (k the dilated kernel size) and `n * strides` with "same".

    Args:
        filters: int > 0, the number of output channels.
        kernel_size: int or tuple of 2 ints, the window's height and width.
        strides: int or tuple of 2 ints, the upsampling factor per axis (default 1).
        padding: "valid" or "same".
        output_padding: int or tuple of 2 ints, each smaller than its stride: pins each output
            size to `(n - 1) * strides + k + output_padding` ("valid") or
            `(n - 1) * strides + k % 2 + output_padding` ("same"); default None, the sizes
            above.
        data_format: "channels_last" (batch, height, width, channels) or "channels_first"
            (batch, channels, height, width); default `tripod.config.image_data_format()`.
        dilation_rate: int or tuple of 2 ints, the spacing of the kernel's taps (default 1).
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
        ValueError: an invalid argument (e.g. `filters` not positive, an unknown `padding`, an
            `output_padding` not smaller than its stride, or strides and dilation both above
            1), named in the message.

    Examples:
        >>> up = tripod.layers.Conv2DTranspose(4, 3, strides=2, padding="same")
        >>> tuple(up(np.zeros((1, 5, 5, 3))).shape)
        (1, 10, 10, 4)
        >>> tuple(up.kernel.shape)
        (3, 3, 4, 3)
    """

    def __init__(
        self,
        filters,
        kernel_size,
        strides=(1, 1),
        padding="valid",
        output_padding=None,
        data_format=None,
        dilation_rate=(1, 1),
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
            output_padding=output_padding,
            data_format=data_format,
            dilation_rate=dilation_rate,
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


class Conv3DTranspose(_ConvTranspose):
    """3D transposed convolution over volumes: `(batch, depth, height, width, channels)` by
    default.

    The kernel has shape `(kd, kh, kw, filters, channels)`. Arguments as in
    `Conv2DTranspose`, with 3 ints per tuple (note that `data_format` comes before
    `output_padding` here, as in Keras).

    Args:
        filters: int > 0, the number of output channels.
        kernel_size: int or tuple of 3 ints, the window's depth, height and width.
        strides: int or tuple of 3 ints, the upsampling factor per axis (default 1).
        padding: "valid" or "same".
        data_format: "channels_last" (batch, depth, height, width, channels) or
            "channels_first" (batch, channels, depth, height, width); default
            `tripod.config.image_data_format()`.
        output_padding: int or tuple of 3 ints, each smaller than its stride, pinning each
            output size as in `Conv2DTranspose`; default None.
        dilation_rate: int or tuple of 3 ints, the spacing of the kernel's taps (default 1).
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
        ValueError: an invalid argument (e.g. `filters` not positive, an unknown `padding`, an
            `output_padding` not smaller than its stride, or strides and dilation both above
            1), named in the message.

    Examples:
        >>> up = tripod.layers.Conv3DTranspose(2, 2, strides=2)
        >>> tuple(up(np.zeros((1, 3, 3, 3, 4))).shape)
        (1, 6, 6, 6, 2)
        >>> tuple(up.kernel.shape)
        (2, 2, 2, 2, 4)
    """

    def __init__(
        self,
        filters,
        kernel_size,
        strides=(1, 1, 1),
        padding="valid",
        data_format=None,
        output_padding=None,
        dilation_rate=(1, 1, 1),
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
            output_padding=output_padding,
            data_format=data_format,
            dilation_rate=dilation_rate,
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


Convolution1DTranspose = Conv1DTranspose
Convolution2DTranspose = Conv2DTranspose
Convolution3DTranspose = Conv3DTranspose
