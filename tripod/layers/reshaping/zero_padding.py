"""`ZeroPadding1D/2D/3D`: add zeros around the spatial axes."""

from tripod.backends import active, config
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer
from tripod.layers.reshaping import _arguments

ops = active()


class _ZeroPadding(Layer):
    """Pads `padding[i] = (before, after)` zeros onto spatial axis i of a batched input."""

    rank = None

    def __init__(self, padding, data_format, **kwargs):
        super().__init__(**kwargs)
        label = f"{type(self).__name__} '{self.name}'"
        self.data_format = config.standardize_data_format(data_format)
        self.padding = _arguments.pairs(padding, self.rank, label, "padding")
        self.input_spec = InputSpec(ndim=self.rank + 2)
        self._axes = _arguments.spatial_axes(self.rank, self.data_format)
        widths = [(0, 0)] * (self.rank + 2)
        for axis, pair in zip(self._axes, self.padding):
            widths[axis] = pair
        self._pad_width = tuple(widths)

    def call(self, inputs):
        return ops.pad(inputs, self._pad_width)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        for axis, (before, after) in zip(self._axes, self.padding):
            if shape[axis] is not None:
                shape[axis] += before + after
        return tuple(shape)

    def get_config(self):
        return {**super().get_config(), "padding": self.padding, "data_format": self.data_format}


class ZeroPadding1D(_ZeroPadding):
    """Adds zero steps at the start and the end of `(batch, steps, features)` inputs.

    Args:
        padding: int or pair of ints `(start, end)`, the zero steps added at each end (an int
            adds that many at both); default 1.
        data_format: "channels_last" (batch, steps, features) or "channels_first"
            (batch, features, steps); default `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `padding` is not a non-negative int or a pair of them, or `data_format` is
            unknown; on a call, the input does not have rank 3.

    Examples:
        >>> x = np.ones((1, 2, 1))
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.ZeroPadding1D()(x)).ravel())
        [0. 1. 1. 0.]
        >>> tuple(tripod.layers.ZeroPadding1D((0, 3))(np.ones((2, 5, 4))).shape)
        (2, 8, 4)
    """

    rank = 1

    def __init__(self, padding=1, data_format=None, **kwargs):
        padding = padding if isinstance(padding, int) else (tuple(padding),)
        super().__init__(padding, data_format, **kwargs)

    def get_config(self):
        return {**super().get_config(), "padding": self.padding[0]}


class ZeroPadding2D(_ZeroPadding):
    """Adds rows and columns of zeros around images.

    Args:
        padding: int, pair of ints `(rows, cols)` (added at both ends), or pair of pairs
            `((top, bottom), (left, right))`; default (1, 1).
        data_format: "channels_last" (batch, height, width, channels) or "channels_first"
            (batch, channels, height, width); default `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `padding` does not have one of these forms (with non-negative ints) or
            `data_format` is unknown; on a call, the input does not have rank 4.

    Examples:
        >>> x = np.ones((1, 2, 2, 1))
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.ZeroPadding2D()(x))[0, :, :, 0])
        [[0. 0. 0. 0.]
         [0. 1. 1. 0.]
         [0. 1. 1. 0.]
         [0. 0. 0. 0.]]
        >>> tuple(tripod.layers.ZeroPadding2D(((1, 0), (2, 2)))(np.ones((2, 3, 3, 4))).shape)
        (2, 4, 7, 4)
    """

    rank = 2

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(padding, data_format, **kwargs)


class ZeroPadding3D(_ZeroPadding):
    """Adds planes of zeros around the three spatial axes of volumes.

    Args:
        padding: int, tuple of 3 ints (added at both ends of each axis), or 3 pairs
            `(start, end)`, one per spatial axis; default ((1, 1), (1, 1), (1, 1)).
        data_format: "channels_last" (batch, depth, height, width, channels) or
            "channels_first" (batch, channels, depth, height, width); default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `padding` does not have one of these forms (with non-negative ints) or
            `data_format` is unknown; on a call, the input does not have rank 5.

    Examples:
        >>> tuple(tripod.layers.ZeroPadding3D()(np.ones((2, 2, 3, 4, 5))).shape)
        (2, 4, 5, 6, 5)
        >>> y = tripod.layers.ZeroPadding3D(((0, 0), (0, 0), (1, 0)))(np.ones((1, 1, 1, 1, 1)))
        >>> print(tripod.ops.convert_to_numpy(y).ravel())
        [0. 1.]
    """

    rank = 3

    def __init__(self, padding=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(padding, data_format, **kwargs)
