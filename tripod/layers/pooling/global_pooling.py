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
    """The mean over the steps axis: `(batch, steps, channels)` -> `(batch, channels)`.

    With a mask (from `Masking` or `Embedding(mask_zero=True)`, or passed as `mask=`), only the
    steps it keeps are averaged. The output carries no mask.

    Args:
        data_format: "channels_last" (batch, steps, channels) or "channels_first"
            (batch, channels, steps); default `tripod.config.image_data_format()`.
        keepdims: bool, keep the pooled axes as axes of size 1 (default False: the output is
            `(batch, channels)`).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `data_format` is unknown; on the first call, the input does not have
            rank 3.

    Examples:
        >>> pool = tripod.layers.GlobalAveragePooling1D()
        >>> x = np.arange(6.0).reshape(1, 3, 2)  # steps [0, 1], [2, 3], [4, 5]
        >>> print(tripod.ops.convert_to_numpy(pool(x)))
        [[2. 3.]]
        >>> print(tripod.ops.convert_to_numpy(pool(x, mask=np.array([[True, True, False]]))))
        [[1. 2.]]
        >>> tuple(tripod.layers.GlobalAveragePooling1D(keepdims=True)(x).shape)
        (1, 1, 2)
    """

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

    def compute_mask(self, inputs, mask):
        return None


class GlobalAveragePooling2D(_GlobalPooling):
    """The mean over the height and width: `(batch, height, width, channels)` ->
    `(batch, channels)`.

    Args:
        data_format: "channels_last" (batch, height, width, channels) or "channels_first"
            (batch, channels, height, width); default `tripod.config.image_data_format()`.
        keepdims: bool, keep the pooled axes as axes of size 1 (default False: the output is
            `(batch, channels)`).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `data_format` is unknown; on the first call, the input does not have
            rank 4.

    Examples:
        >>> x = np.arange(8.0).reshape(1, 2, 2, 2)
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.GlobalAveragePooling2D()(x)))
        [[3. 4.]]
        >>> tuple(tripod.layers.GlobalAveragePooling2D(keepdims=True)(x).shape)
        (1, 1, 1, 2)
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(2, ops.mean, data_format=data_format, keepdims=keepdims, **kwargs)


class GlobalAveragePooling3D(_GlobalPooling):
    """The mean over the depth, height and width: `(batch, depth, height, width, channels)` ->
    `(batch, channels)`.

    Args:
        data_format: "channels_last" (batch, depth, height, width, channels) or
            "channels_first" (batch, channels, depth, height, width); default
            `tripod.config.image_data_format()`.
        keepdims: bool, keep the pooled axes as axes of size 1 (default False: the output is
            `(batch, channels)`).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `data_format` is unknown; on the first call, the input does not have
            rank 5.

    Examples:
        >>> x = np.arange(16.0).reshape(1, 2, 2, 2, 2)
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.GlobalAveragePooling3D()(x)))
        [[7. 8.]]
        >>> tuple(tripod.layers.GlobalAveragePooling3D(keepdims=True)(x).shape)
        (1, 1, 1, 1, 2)
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(3, ops.mean, data_format=data_format, keepdims=keepdims, **kwargs)


class GlobalMaxPooling1D(_GlobalPooling):
    """The maximum over the steps axis: `(batch, steps, channels)` -> `(batch, channels)`.

    Args:
        data_format: "channels_last" (batch, steps, channels) or "channels_first"
            (batch, channels, steps); default `tripod.config.image_data_format()`.
        keepdims: bool, keep the pooled axes as axes of size 1 (default False: the output is
            `(batch, channels)`).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `data_format` is unknown; on the first call, the input does not have
            rank 3.

    Examples:
        >>> x = np.array([[[1.0, 5.0], [4.0, 2.0], [3.0, 0.0]]])
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.GlobalMaxPooling1D()(x)))
        [[4. 5.]]
        >>> tuple(tripod.layers.GlobalMaxPooling1D(keepdims=True)(x).shape)
        (1, 1, 2)
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(1, ops.max, data_format=data_format, keepdims=keepdims, **kwargs)


class GlobalMaxPooling2D(_GlobalPooling):
    """The maximum over the height and width: `(batch, height, width, channels)` ->
    `(batch, channels)`.

    Args:
        data_format: "channels_last" (batch, height, width, channels) or "channels_first"
            (batch, channels, height, width); default `tripod.config.image_data_format()`.
        keepdims: bool, keep the pooled axes as axes of size 1 (default False: the output is
            `(batch, channels)`).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `data_format` is unknown; on the first call, the input does not have
            rank 4.

    Examples:
        >>> x = np.arange(8.0).reshape(1, 2, 2, 2)
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.GlobalMaxPooling2D()(x)))
        [[6. 7.]]
        >>> y = tripod.layers.GlobalMaxPooling2D(data_format="channels_first")(x)
        >>> print(tripod.ops.convert_to_numpy(y))
        [[3. 7.]]
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(2, ops.max, data_format=data_format, keepdims=keepdims, **kwargs)


class GlobalMaxPooling3D(_GlobalPooling):
    """The maximum over the depth, height and width: `(batch, depth, height, width, channels)`
    -> `(batch, channels)`.

    Args:
        data_format: "channels_last" (batch, depth, height, width, channels) or
            "channels_first" (batch, channels, depth, height, width); default
            `tripod.config.image_data_format()`.
        keepdims: bool, keep the pooled axes as axes of size 1 (default False: the output is
            `(batch, channels)`).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `data_format` is unknown; on the first call, the input does not have
            rank 5.

    Examples:
        >>> x = np.arange(16.0).reshape(1, 2, 2, 2, 2)
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.GlobalMaxPooling3D()(x)))
        [[14. 15.]]
        >>> tuple(tripod.layers.GlobalMaxPooling3D(keepdims=True)(x).shape)
        (1, 1, 1, 1, 2)
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(3, ops.max, data_format=data_format, keepdims=keepdims, **kwargs)


GlobalAvgPool1D = GlobalAveragePooling1D
GlobalAvgPool2D = GlobalAveragePooling2D
GlobalAvgPool3D = GlobalAveragePooling3D
GlobalMaxPool1D = GlobalMaxPooling1D
GlobalMaxPool2D = GlobalMaxPooling2D
GlobalMaxPool3D = GlobalMaxPooling3D
