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
    """1D transposed convolution over (batch, steps, channels)."""

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
    """2D transposed convolution over (batch, height, width, channels)."""

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
    """3D transposed convolution over (batch, depth, height, width, channels)."""

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
