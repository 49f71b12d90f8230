"""`Cropping1D/2D/3D`: remove rows/columns/planes from the borders of the spatial axes."""

from tripod.backends import config
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer
from tripod.layers.reshaping import _arguments


class _Cropping(Layer):
    """Crops `cropping[i] = (before, after)` from spatial axis i of a batched input."""

    rank = None

    def __init__(self, cropping, data_format, **kwargs):
        super().__init__(**kwargs)
        label = f"{type(self).__name__} '{self.name}'"
        self.data_format = config.standardize_data_format(data_format)
        self.cropping = _arguments.pairs(cropping, self.rank, label, "cropping")
        self.input_spec = InputSpec(ndim=self.rank + 2)
        self._axes = _arguments.spatial_axes(self.rank, self.data_format)
        index = [slice(None)] * (self.rank + 2)
        for axis, (before, after) in zip(self._axes, self.cropping):
            index[axis] = slice(before, -after if after else None)
        self._index = tuple(index)

    def _check(self, shape):
        for axis, (before, after) in zip(self._axes, self.cropping):
            if isinstance(shape[axis], int) and before + after >= shape[axis]:
                raise ValueError(
                    f"{type(self).__name__} '{self.name}': cropping {self.cropping} must leave "
                    f"something of every spatial axis, but the input has shape {tuple(shape)}."
                )

    def call(self, inputs):
        self._check(tuple(inputs.shape))
        return inputs[self._index]

    def compute_output_shape(self, input_shape):
        self._check(input_shape)
        shape = list(input_shape)
        for axis, (before, after) in zip(self._axes, self.cropping):
            if shape[axis] is not None:
                shape[axis] -= before + after
        return tuple(shape)

    def get_config(self):
        return {**super().get_config(), "cropping": self.cropping, "data_format": self.data_format}


class Cropping1D(_Cropping):
    """Removes steps from the start and the end of `(batch, steps, features)` inputs.

    Args:
        cropping: int or pair of ints `(start, end)`, the steps removed at each end (an int
            crops that many at both); default (1, 1).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `cropping` is not a non-negative int or a pair of them; on a call, the
            input does not have rank 3 or `cropping` would leave no steps.

    Examples:
        >>> x = np.arange(6.0).reshape(1, 6, 1)
        >>> y = tripod.layers.Cropping1D((1, 2))(x)
        >>> print(tripod.ops.convert_to_numpy(y).ravel())
        [1. 2. 3.]
        >>> tuple(tripod.layers.Cropping1D()(np.zeros((2, 10, 3))).shape)
        (2, 8, 3)
    """

    rank = 1

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__((cropping,), "channels_last", **kwargs)

    def get_config(self):
        config = super().get_config()
        del config["data_format"]
        return {**config, "cropping": self.cropping[0]}


class Cropping2D(_Cropping):
    """Removes rows and columns from the borders of images.

    Args:
        cropping: int, pair of ints `(rows, cols)` (cropped at both ends), or pair of pairs
            `((top, bottom), (left, right))`; default ((0, 0), (0, 0)), no cropping.
        data_format: "channels_last" (batch, height, width, channels) or "channels_first"
            (batch, channels, height, width); default `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `cropping` does not have one of these forms (with non-negative ints) or
            `data_format` is unknown; on a call, the input does not have rank 4 or `cropping`
            would leave nothing of an axis.

    Examples:
        >>> x = np.arange(16.0).reshape(1, 4, 4, 1)
        >>> y = tripod.layers.Cropping2D(((1, 0), (0, 2)))(x)
        >>> print(tripod.ops.convert_to_numpy(y)[0, :, :, 0])
        [[ 4.  5.]
         [ 8.  9.]
         [12. 13.]]
        >>> tuple(tripod.layers.Cropping2D(2)(np.zeros((2, 28, 28, 3))).shape)
        (2, 24, 24, 3)
    """

    rank = 2

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(cropping, data_format, **kwargs)


class Cropping3D(_Cropping):
    """Removes planes from the borders of the three spatial axes of volumes.

    Args:
        cropping: int, tuple of 3 ints (cropped at both ends of each axis), or 3 pairs
            `(start, end)`, one per spatial axis; default ((1, 1), (1, 1), (1, 1)).
        data_format: "channels_last" (batch, depth, height, width, channels) or
            "channels_first" (batch, channels, depth, height, width); default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `cropping` does not have one of these forms (with non-negative ints) or
            `data_format` is unknown; on a call, the input does not have rank 5 or `cropping`
            would leave nothing of an axis.

    Examples:
        >>> tuple(tripod.layers.Cropping3D()(np.zeros((2, 4, 5, 6, 3))).shape)
        (2, 2, 3, 4, 3)
        >>> crop = tripod.layers.Cropping3D(((0, 1), 0, (2, 0)))
        >>> tuple(crop(np.zeros((2, 4, 5, 6, 3))).shape)
        (2, 3, 5, 4, 3)
    """

    rank = 3

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(cropping, data_format, **kwargs)
