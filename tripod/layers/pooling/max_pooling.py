"""`MaxPooling1D`, `MaxPooling2D`, `MaxPooling3D`: the maximum of each pooling window."""

from tripod.backends import active
from tripod.layers.pooling.base_pooling import _BasePooling

ops = active()


class MaxPooling1D(_BasePooling):
    """The maximum of each window of `pool_size` steps, taken every `strides` steps.

    Inputs `(batch, steps, channels)` give `(batch, new_steps, channels)`, each channel pooled on
    its own.

    Args:
        pool_size: int > 0, the window's length (default 2).
        strides: int > 0, the step between windows; default None, `pool_size`
            (windows that do not overlap).
        padding: "valid" (windows inside the input: the output shrinks) or "same" (padded so
            that with stride 1 the output keeps the input's size); default "valid".
        data_format: "channels_last" (batch, steps, channels) or "channels_first"
            (batch, channels, steps); default `tripod.config.image_data_format()`.
        name: str, the layer's name (default: made from the class name).
        **kwargs: the other `Layer` arguments (dtype, trainable, ...).

    Raises:
        ValueError: `pool_size` or `strides` is not a positive int (or tuple of 1 of them),
            or `padding` or `data_format` is unknown; on the first call, the input does not
            have rank 3.

    Examples:
        >>> x = np.array([1.0, 3.0, 2.0, 0.0]).reshape(1, 4, 1)
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.MaxPooling1D()(x)).ravel())
        [3. 2.]
        >>> y = tripod.layers.MaxPooling1D(2, strides=1)(x)
        >>> print(tripod.ops.convert_to_numpy(y).ravel())
        [3. 3. 2.]
    """

    def __init__(
        self, pool_size=2, strides=None, padding="valid", data_format=None, name=None, **kwargs
    ):
        super().__init__(
            1,
            ops.max_pool,
            pool_size=pool_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            name=name,
            **kwargs,
        )


class MaxPooling2D(_BasePooling):
    """The maximum of each `pool_size` window of an image, taken every `strides` pixels.

    Inputs `(batch, height, width, channels)` give `(batch, new_height, new_width, channels)`,
    each channel pooled on its own.

    Args:
        pool_size: int > 0 or tuple of 2 ints, the window's height and width (default (2, 2)).
        strides: int > 0 or tuple of 2 ints, the step between windows; default None, `pool_size`
            (windows that do not overlap).
        padding: "valid" (windows inside the input: the output shrinks) or "same" (padded so
            that with stride 1 the output keeps the input's size); default "valid".
        data_format: "channels_last" (batch, height, width, channels) or "channels_first"
            (batch, channels, height, width); default `tripod.config.image_data_format()`.
        name: str, the layer's name (default: made from the class name).
        **kwargs: the other `Layer` arguments (dtype, trainable, ...).

    Raises:
        ValueError: `pool_size` or `strides` is not a positive int (or tuple of 2 of them),
            or `padding` or `data_format` is unknown; on the first call, the input does not
            have rank 4.

    Examples:
        >>> pool = tripod.layers.MaxPooling2D()
        >>> x = np.arange(16.0).reshape(1, 4, 4, 1)
        >>> print(tripod.ops.convert_to_numpy(pool(x))[0, :, :, 0])
        [[ 5.  7.]
         [13. 15.]]
        >>> same = tripod.layers.MaxPooling2D(3, strides=2, padding="same")
        >>> tuple(same(np.zeros((2, 9, 9, 3))).shape)
        (2, 5, 5, 3)
    """

    def __init__(
        self, pool_size=(2, 2), strides=None, padding="valid", data_format=None, name=None, **kwargs
    ):
        super().__init__(
            2,
            ops.max_pool,
            pool_size=pool_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            name=name,
            **kwargs,
        )


class MaxPooling3D(_BasePooling):
    """The maximum of each `pool_size` window of a volume, taken every `strides` voxels.

    Inputs `(batch, depth, height, width, channels)` give
    `(batch, new_depth, new_height, new_width, channels)`.

    Args:
        pool_size: int > 0 or tuple of 3 ints, the window's depth, height and width
            (default (2, 2, 2)).
        strides: int > 0 or tuple of 3 ints, the step between windows; default None, `pool_size`
            (windows that do not overlap).
        padding: "valid" (windows inside the input: the output shrinks) or "same" (padded so
            that with stride 1 the output keeps the input's size); default "valid".
        data_format: "channels_last" (batch, depth, height, width, channels) or
            "channels_first" (batch, channels, depth, height, width); default
            `tripod.config.image_data_format()`.
        name: str, the layer's name (default: made from the class name).
        **kwargs: the other `Layer` arguments (dtype, trainable, ...).

    Raises:
        ValueError: `pool_size` or `strides` is not a positive int (or tuple of 3 of them),
            or `padding` or `data_format` is unknown; on the first call, the input does not
            have rank 5.

    Examples:
        >>> pool = tripod.layers.MaxPooling3D()
        >>> x = np.arange(8.0).reshape(1, 2, 2, 2, 1)
        >>> print(tripod.ops.convert_to_numpy(pool(x)).ravel())
        [7.]
        >>> tuple(pool(np.zeros((2, 4, 6, 8, 3))).shape)
        (2, 2, 3, 4, 3)
    """

    def __init__(
        self,
        pool_size=(2, 2, 2),
        strides=None,
        padding="valid",
        data_format=None,
        name=None,
        **kwargs,
    ):
        super().__init__(
            3,
            ops.max_pool,
            pool_size=pool_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            name=name,
            **kwargs,
        )


MaxPool1D = MaxPooling1D
MaxPool2D = MaxPooling2D
MaxPool3D = MaxPooling3D
