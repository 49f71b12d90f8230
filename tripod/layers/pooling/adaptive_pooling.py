"""Adaptive pooling: windows chosen so the output has a fixed spatial size, whatever the input's."""

from tripod.backends import active
from tripod.backends.common import conv as conv_shapes
from tripod.layers.convolution import _arguments as args
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer

ops = active()


class _AdaptivePooling(Layer):
    """Pools the spatial dims down to `output_size` with `pool_op` (adaptive max or average)."""

    def __init__(self, rank, pool_op, output_size, *, data_format, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self._pool_op = pool_op
        self.output_size = args.tuple_arg(self, output_size, rank, "output_size")
        self.data_format = args.data_format_arg(self, data_format)
        self.input_spec = InputSpec(ndim=rank + 2)

    def call(self, inputs):
        return self._pool_op(inputs, self.output_size, self.data_format)

    def compute_output_shape(self, input_shape):
        args.check_rank(self, input_shape, self.rank)
        channels = conv_shapes.channels(input_shape, self.data_format)
        return args.output_shape(self, input_shape, self.data_format, channels, self.output_size)

    def get_config(self):
        return {
            **super().get_config(),
            "output_size": self.output_size,
            "data_format": self.data_format,
        }


class AdaptiveAveragePooling1D(_AdaptivePooling):
    """Average pooling of the steps axis down to a fixed length `output_size`, whatever the
    input's length.

    Output step i averages input steps `floor(i * n / output_size)` to
    `ceil((i + 1) * n / output_size) - 1` of an input of n steps, so windows may overlap when
    `output_size` does not divide n. Inputs `(batch, steps, channels)` give
    `(batch, output_size, channels)`.

    Args:
        output_size: int > 0 (or a tuple of 1 int), the output's number of steps.
        data_format: "channels_last" (batch, steps, channels) or "channels_first"
            (batch, channels, steps); default `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `output_size` is not a positive int (or tuple of them) or `data_format` is
            unknown; on the first call, the input does not have rank 3.

    Examples:
        >>> pool = tripod.layers.AdaptiveAveragePooling1D(2)
        >>> print(tripod.ops.convert_to_numpy(pool(np.arange(6.0).reshape(1, 6, 1)))[0, :, 0])
        [1. 4.]
        >>> print(tripod.ops.convert_to_numpy(pool(np.arange(5.0).reshape(1, 5, 1)))[0, :, 0])
        [1. 3.]
    """

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(
            1, ops.adaptive_average_pool, output_size, data_format=data_format, **kwargs
        )


class AdaptiveAveragePooling2D(_AdaptivePooling):
    """Average pooling of the height and width down to a fixed size `output_size`, whatever the
    input's size.

    Along each spatial axis of length n, output index i averages input indices
    `floor(i * n / size)` to `ceil((i + 1) * n / size) - 1`. Inputs
    `(batch, height, width, channels)` give `(batch, *output_size, channels)`.

    Args:
        output_size: int > 0 or tuple of 2 ints, the output's height and width.
        data_format: "channels_last" (batch, height, width, channels) or "channels_first"
            (batch, channels, height, width); default `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `output_size` is not a positive int (or tuple of them) or `data_format` is
            unknown; on the first call, the input does not have rank 4.

    Examples:
        >>> pool = tripod.layers.AdaptiveAveragePooling2D(2)
        >>> x = np.arange(16.0).reshape(1, 4, 4, 1)
        >>> print(tripod.ops.convert_to_numpy(pool(x))[0, :, :, 0])
        [[ 2.5  4.5]
         [10.5 12.5]]
        >>> tuple(tripod.layers.AdaptiveAveragePooling2D((3, 5))(np.zeros((2, 7, 9, 4))).shape)
        (2, 3, 5, 4)
    """

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(
            2, ops.adaptive_average_pool, output_size, data_format=data_format, **kwargs
        )


class AdaptiveAveragePooling3D(_AdaptivePooling):
    """Average pooling of the depth, height and width down to a fixed size `output_size`.

    Windows are chosen per axis as in `AdaptiveAveragePooling2D`. Inputs
    `(batch, depth, height, width, channels)` give `(batch, *output_size, channels)`.

    Args:
        output_size: int > 0 or tuple of 3 ints, the output's depth, height and width.
        data_format: "channels_last" (batch, depth, height, width, channels) or
            "channels_first" (batch, channels, depth, height, width); default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `output_size` is not a positive int (or tuple of them) or `data_format` is
            unknown; on the first call, the input does not have rank 5.

    Examples:
        >>> pool = tripod.layers.AdaptiveAveragePooling3D((1, 2, 3))
        >>> tuple(pool(np.zeros((2, 4, 5, 6, 3))).shape)
        (2, 1, 2, 3, 3)
        >>> float(tripod.ops.convert_to_numpy(pool(np.ones((1, 4, 4, 4, 1)))).max())
        1.0
    """

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(
            3, ops.adaptive_average_pool, output_size, data_format=data_format, **kwargs
        )


class AdaptiveMaxPooling1D(_AdaptivePooling):
    """Max pooling of the steps axis down to a fixed length `output_size`, whatever the input's
    length.

    Output step i is the maximum of input steps `floor(i * n / output_size)` to
    `ceil((i + 1) * n / output_size) - 1` of an input of n steps (windows may overlap). Inputs
    `(batch, steps, channels)` give `(batch, output_size, channels)`.

    Args:
        output_size: int > 0 (or a tuple of 1 int), the output's number of steps.
        data_format: "channels_last" (batch, steps, channels) or "channels_first"
            (batch, channels, steps); default `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `output_size` is not a positive int (or tuple of them) or `data_format` is
            unknown; on the first call, the input does not have rank 3.

    Examples:
        >>> pool = tripod.layers.AdaptiveMaxPooling1D(2)
        >>> print(tripod.ops.convert_to_numpy(pool(np.arange(6.0).reshape(1, 6, 1)))[0, :, 0])
        [2. 5.]
        >>> print(tripod.ops.convert_to_numpy(pool(np.arange(5.0).reshape(1, 5, 1)))[0, :, 0])
        [2. 4.]
    """

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(1, ops.adaptive_max_pool, output_size, data_format=data_format, **kwargs)


class AdaptiveMaxPooling2D(_AdaptivePooling):
    """Max pooling of the height and width down to a fixed size `output_size`, whatever the
    input's size.

    Along each spatial axis of length n, output index i takes the maximum over input indices
    `floor(i * n / size)` to `ceil((i + 1) * n / size) - 1`. Inputs
    `(batch, height, width, channels)` give `(batch, *output_size, channels)`.

    Args:
        output_size: int > 0 or tuple of 2 ints, the output's height and width.
        data_format: "channels_last" (batch, height, width, channels) or "channels_first"
            (batch, channels, height, width); default `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `output_size` is not a positive int (or tuple of them) or `data_format` is
            unknown; on the first call, the input does not have rank 4.

    Examples:
        >>> pool = tripod.layers.AdaptiveMaxPooling2D(2)
        >>> x = np.arange(16.0).reshape(1, 4, 4, 1)
        >>> print(tripod.ops.convert_to_numpy(pool(x))[0, :, :, 0])
        [[ 5.  7.]
         [13. 15.]]
        >>> tuple(tripod.layers.AdaptiveMaxPooling2D((3, 5))(np.zeros((2, 7, 9, 4))).shape)
        (2, 3, 5, 4)
    """

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(2, ops.adaptive_max_pool, output_size, data_format=data_format, **kwargs)


class AdaptiveMaxPooling3D(_AdaptivePooling):
    """Max pooling of the depth, height and width down to a fixed size `output_size`.

    Windows are chosen per axis as in `AdaptiveMaxPooling2D`. Inputs
    `(batch, depth, height, width, channels)` give `(batch, *output_size, channels)`.

    Args:
        output_size: int > 0 or tuple of 3 ints, the output's depth, height and width.
        data_format: "channels_last" (batch, depth, height, width, channels) or
            "channels_first" (batch, channels, depth, height, width); default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `output_size` is not a positive int (or tuple of them) or `data_format` is
            unknown; on the first call, the input does not have rank 5.

    Examples:
        >>> pool = tripod.layers.AdaptiveMaxPooling3D((1, 2, 3))
        >>> tuple(pool(np.zeros((2, 4, 5, 6, 3))).shape)
        (2, 1, 2, 3, 3)
        >>> x = np.arange(8.0).reshape(1, 2, 2, 2, 1)
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.AdaptiveMaxPooling3D(1)(x)).ravel())
        [7.]
    """

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(3, ops.adaptive_max_pool, output_size, data_format=data_format, **kwargs)
