"""`UpSampling1D/2D/3D`: repeat (or interpolate) along the spatial axes."""

from tripod.backends import active, config
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer
from tripod.layers.reshaping import _arguments

ops = active()

_INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "lanczos3", "lanczos5", "area")


class _UpSampling(Layer):
    """Repeats every element `size[i]` times along spatial axis i of a batched input."""

    rank = None

    def __init__(self, size, data_format, **kwargs):
        super().__init__(**kwargs)
        self.data_format = config.standardize_data_format(data_format)
        self.size = _arguments.int_tuple(
            size, self.rank, f"{type(self).__name__} '{self.name}'", "size", minimum=1
        )
        self.input_spec = InputSpec(ndim=self.rank + 2)
        self._axes = _arguments.spatial_axes(self.rank, self.data_format)

    def call(self, inputs):
        for axis, factor in zip(self._axes, self.size):
            if factor != 1:
                inputs = ops.repeat(inputs, factor, axis=axis)
        return inputs

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        for axis, factor in zip(self._axes, self.size):
            if shape[axis] is not None:
                shape[axis] *= factor
        return tuple(shape)

    def get_config(self):
        return {**super().get_config(), "size": self.size, "data_format": self.data_format}


class UpSampling1D(_UpSampling):
    """Repeats each step of `(batch, steps, features)` inputs `size` times:
    `(batch, steps * size, features)`.

    Args:
        size: int > 0, the number of repetitions of each step (default 2).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `size` is not a positive integer; on a call, the input does not have
            rank 3.

    Examples:
        >>> x = np.array([[[1.0], [2.0]]])
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.UpSampling1D(2)(x)).ravel())
        [1. 1. 2. 2.]
    """

    rank = 1

    def __init__(self, size=2, **kwargs):
        super().__init__(size, "channels_last", **kwargs)

    def get_config(self):
        config = super().get_config()
        del config["data_format"]
        return {**config, "size": self.size[0]}


class UpSampling2D(_UpSampling):
    """Scales images up by integer factors `size` along the height and width.

    With "nearest" interpolation each pixel is repeated into a `size` block; the other modes
    resize the image with `tripod.ops.resize`. `(batch, height, width, channels)` gives
    `(batch, height * size[0], width * size[1], channels)`.

    Args:
        size: int > 0 or pair of ints, the factors of the height and width (default (2, 2)).
        data_format: "channels_last" (batch, height, width, channels) or "channels_first"
            (batch, channels, height, width); default `tripod.config.image_data_format()`.
        interpolation: "nearest" (default), "bilinear", "bicubic", "lanczos3", "lanczos5" or
            "area".
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `size` is not a positive int or a pair of them, or `data_format` or
            `interpolation` is unknown; on a call, the input does not have rank 4.

    Examples:
        >>> x = np.arange(4.0).reshape(1, 2, 2, 1)
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.UpSampling2D()(x))[0, :, :, 0])
        [[0. 0. 1. 1.]
         [0. 0. 1. 1.]
         [2. 2. 3. 3.]
         [2. 2. 3. 3.]]
        >>> up = tripod.layers.UpSampling2D((2, 3), interpolation="bilinear")
        >>> tuple(up(np.zeros((1, 4, 4, 3))).shape)
        (1, 8, 12, 3)
    """

    rank = 2

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(size, data_format, **kwargs)
        if interpolation not in _INTERPOLATIONS:
            raise ValueError(
                f"UpSampling2D '{self.name}': interpolation must be one of {_INTERPOLATIONS}, "
                f"received {interpolation!r}."
            )
        self.interpolation = interpolation

    def call(self, inputs):
        if self.interpolation == "nearest":
            return super().call(inputs)
        shape = ops.shape(inputs)
        size = tuple(shape[axis] * factor for axis, factor in zip(self._axes, self.size))
        return ops.resize(
            inputs, size, interpolation=self.interpolation, data_format=self.data_format
        )

    def get_config(self):
        return {**super().get_config(), "interpolation": self.interpolation}


class UpSampling3D(_UpSampling):
    """Repeats each voxel of volumes `size[i]` times along spatial axis i.

    Args:
        size: int > 0 or tuple of 3 ints, the factors of the three spatial axes (default
            (2, 2, 2)).
        data_format: "channels_last" (batch, depth, height, width, channels) or
            "channels_first" (batch, channels, depth, height, width); default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `size` is not a positive int or 3 of them, or `data_format` is unknown; on
            a call, the input does not have rank 5.

    Examples:
        >>> tuple(tripod.layers.UpSampling3D()(np.zeros((1, 2, 3, 4, 5))).shape)
        (1, 4, 6, 8, 5)
        >>> y = tripod.layers.UpSampling3D((1, 1, 2))(np.arange(2.0).reshape(1, 1, 1, 2, 1))
        >>> print(tripod.ops.convert_to_numpy(y).ravel())
        [0. 0. 1. 1.]
    """

    rank = 3

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(size, data_format, **kwargs)
