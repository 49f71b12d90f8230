"""`Conv1D`, `Conv2D`, `Conv3D`: activation(conv(inputs, kernel) + bias), optionally grouped."""

from tripod.backends import active
from tripod.backends.common import conv as conv_shapes
from tripod.layers import weight_settings
from tripod.layers.convolution import _arguments as args
from tripod.layers.convolution.base_conv import _BaseConv

ops = active()


class _Conv(_BaseConv):
    """A convolution of any rank; the kernel is (spatial..., in_channels / groups, filters)."""

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):  # fmt: skip
        paddings = ("valid", "same", "causal") if rank == 1 else ("valid", "same")
        super().__init__(
            rank, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
            bias_initializer, bias_regularizer, bias_constraint,
            activity_regularizer=activity_regularizer, paddings=paddings, **kwargs,
        )  # fmt: skip
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
            n + self._causal_extra, self.kernel_size[i], self.strides[i], self._op_padding,
            self.dilation_rate[i],
        )  # fmt: skip

    def get_config(self):
        return {
            **super().get_config(),
            "filters": self.filters,
            "groups": self.groups,
            **weight_settings.config(self, "kernel"),
        }


class Conv1D(_Conv):
    """1D convolution over (batch, steps, channels); padding may also be 'causal'."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):  # fmt: skip
        super().__init__(
            1, filters, kernel_size, strides, padding, data_format, dilation_rate, groups,
            activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
            bias_regularizer, activity_regularizer, kernel_constraint, bias_constraint, **kwargs,
        )  # fmt: skip


class Conv2D(_Conv):
    """2D convolution over (batch, height, width, channels)."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):  # fmt: skip
        super().__init__(
            2, filters, kernel_size, strides, padding, data_format, dilation_rate, groups,
            activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
            bias_regularizer, activity_regularizer, kernel_constraint, bias_constraint, **kwargs,
        )  # fmt: skip


class Conv3D(_Conv):
    """3D convolution over (batch, depth, height, width, channels)."""

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1, 1), groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):  # fmt: skip
        super().__init__(
            3, filters, kernel_size, strides, padding, data_format, dilation_rate, groups,
            activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
            bias_regularizer, activity_regularizer, kernel_constraint, bias_constraint, **kwargs,
        )  # fmt: skip


Convolution1D = Conv1D
Convolution2D = Conv2D
Convolution3D = Conv3D
