"""Global pooling: the max or mean over every spatial dim (`GlobalAveragePooling1D` can skip
masked steps)."""

from tripod.backends import active
from tripod.backends.common import conv as conv_shapes
from tripod.layers.convolution import _arguments as args
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer

ops = active()


class _GlobalPooling(Layer):
    """Reduces the spatial dims with `reduce_op` (keeping them as size 1 when `keepdims`)."""

    def __init__(self, rank, reduce_op, *, data_format, keepdims, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self._reduce = reduce_op
        self.data_format = args.data_format_arg(self, data_format)
        self.keepdims = keepdims
        first = 2 if self.data_format == "channels_first" else 1
        self._axes = tuple(range(first, first + rank))
        self.input_spec = InputSpec(ndim=rank + 2)

    def call(self, inputs):
        return self._reduce(inputs, axis=self._axes, keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        args.check_rank(self, input_shape, self.rank)
        if self.keepdims:
            channels = conv_shapes.channels(input_shape, self.data_format)
            return args.output_shape(
                self, input_shape, self.data_format, channels, (1,) * self.rank
            )
        return (input_shape[0], conv_shapes.channels(input_shape, self.data_format))

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format, "keepdims": self.keepdims}


class GlobalAveragePooling1D(_GlobalPooling):
    """The mean over the steps of (batch, steps, channels) inputs; masked steps are left out."""

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(1, ops.mean, data_format=data_format, keepdims=keepdims, **kwargs)
        self.supports_masking = True
        self._mask_axis = 1 if self.data_format == "channels_first" else -1

    def call(self, inputs, mask=None):
        if mask is None:
            return ops.mean(inputs, axis=self._axes, keepdims=self.keepdims)
        weights = ops.expand_dims(ops.cast(mask, inputs.dtype), self._mask_axis)
        total = ops.sum(ops.multiply(inputs, weights), axis=self._axes, keepdims=self.keepdims)
        return ops.divide(total, ops.sum(weights, axis=self._axes, keepdims=self.keepdims))

    def compute_mask(self, inputs, previous_mask):
        return None


class GlobalAveragePooling2D(_GlobalPooling):
    """The mean over the height and width of (batch, height, width, channels) inputs."""

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(2, ops.mean, data_format=data_format, keepdims=keepdims, **kwargs)


class GlobalAveragePooling3D(_GlobalPooling):
    """The mean over the depth, height and width of 5D inputs."""

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(3, ops.mean, data_format=data_format, keepdims=keepdims, **kwargs)


class GlobalMaxPooling1D(_GlobalPooling):
    """The maximum over the steps of (batch, steps, channels) inputs."""

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(1, ops.max, data_format=data_format, keepdims=keepdims, **kwargs)


class GlobalMaxPooling2D(_GlobalPooling):
    """The maximum over the height and width of (batch, height, width, channels) inputs."""

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(2, ops.max, data_format=data_format, keepdims=keepdims, **kwargs)


class GlobalMaxPooling3D(_GlobalPooling):
    """The maximum over the depth, height and width of 5D inputs."""

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(3, ops.max, data_format=data_format, keepdims=keepdims, **kwargs)


GlobalAvgPool1D = GlobalAveragePooling1D
GlobalAvgPool2D = GlobalAveragePooling2D
GlobalAvgPool3D = GlobalAveragePooling3D
GlobalMaxPool1D = GlobalMaxPooling1D
GlobalMaxPool2D = GlobalMaxPooling2D
GlobalMaxPool3D = GlobalMaxPooling3D
