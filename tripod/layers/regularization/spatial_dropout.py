"""`SpatialDropout1D/2D/3D`: dropout of whole feature maps (channels) instead of single entries."""

from tripod.backends import active, config
from tripod.layers.input_spec import InputSpec
from tripod.layers.regularization.dropout import Dropout

ops = active()


class _SpatialDropout(Dropout):
    """Dropout whose mask is shared over the spatial axes: whole channels are kept or zeroed."""

    _rank = None  # spatial rank, set by the subclasses

    def __init__(self, rate, data_format=None, seed=None, name=None, dtype=None):
        super().__init__(rate=rate, seed=seed, name=name, dtype=dtype)
        if data_format is None:
            data_format = config.image_data_format()
        if data_format not in ("channels_last", "channels_first"):
            raise ValueError(
                f"{type(self).__name__} '{self.name}': data_format must be 'channels_last' or "
                f"'channels_first', received {data_format!r}."
            )
        self.data_format = data_format
        self.input_spec = InputSpec(ndim=self._rank + 2)

    def _noise_shape(self, inputs):
        shape = ops.shape(inputs)
        ones = (1,) * self._rank
        if self.data_format == "channels_first":
            return (shape[0], shape[1]) + ones
        return (shape[0],) + ones + (shape[-1],)

    def get_config(self):
        return {
            "rate": self.rate,
            "seed": self.seed,
            "name": self.name,
            "dtype": self.dtype_policy.name,
            "data_format": self.data_format,
        }


class SpatialDropout1D(_SpatialDropout):
    """Drops whole channels of `(batch, steps, channels)` inputs in training.

    Each channel of each example is zeroed at every step with probability `rate`, and the kept
    ones are scaled by `1 / (1 - rate)`; neighbouring steps are strongly correlated, so dropping
    single entries would regularize little. In inference the input passes unchanged.

    Args:
        rate: float in [0, 1], the probability of dropping a channel.
        seed: int, the seed of the layer's random generator.
        name: str, the layer's name (default: made from the class name).
        dtype: the layer's dtype or dtype policy (default: the global policy).

    Raises:
        ValueError: `rate` is not a number in [0, 1]; on the first call, the input does not
            have rank 3.

    Examples:
        >>> dropout = tripod.layers.SpatialDropout1D(0.5, seed=1)
        >>> x = np.ones((2, 4, 3))
        >>> bool(np.all(tripod.ops.convert_to_numpy(dropout(x)) == 1.0))  # inference
        True
        >>> y = tripod.ops.convert_to_numpy(dropout(x, training=True))
        >>> bool(np.all(y == y[:, :1, :]))  # one mask for all steps
        True
    """

    _rank = 1

    def __init__(self, rate, seed=None, name=None, dtype=None):
        super().__init__(rate, data_format="channels_last", seed=seed, name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["data_format"]
        return config


class SpatialDropout2D(_SpatialDropout):
    """Drops whole channels (feature maps) of images in training.

    Each channel of each example is zeroed over its whole height and width with probability
    `rate`, and the kept ones are scaled by `1 / (1 - rate)`. In inference the input passes
    unchanged.

    Args:
        rate: float in [0, 1], the probability of dropping a channel.
        data_format: "channels_last" (batch, height, width, channels) or "channels_first"
            (batch, channels, height, width); default `tripod.config.image_data_format()`.
        seed: int, the seed of the layer's random generator.
        name: str, the layer's name (default: made from the class name).
        dtype: the layer's dtype or dtype policy (default: the global policy).

    Raises:
        ValueError: `rate` is not a number in [0, 1] or `data_format` is unknown; on the first
            call, the input does not have rank 4.

    Examples:
        >>> dropout = tripod.layers.SpatialDropout2D(0.5, seed=1)
        >>> x = np.ones((2, 3, 3, 4))
        >>> y = tripod.ops.convert_to_numpy(dropout(x, training=True))
        >>> bool(np.all(y == y[:, :1, :1, :]))  # one mask for all pixels of a channel
        True
        >>> bool(np.all((y == 0.0) | (y == 2.0)))  # dropped, or kept and scaled by 2
        True
    """

    _rank = 2

    def __init__(self, rate, data_format=None, seed=None, name=None, dtype=None):
        super().__init__(rate, data_format=data_format, seed=seed, name=name, dtype=dtype)


class SpatialDropout3D(_SpatialDropout):
    """Drops whole channels (feature maps) of volumes in training.

    Each channel of each example is zeroed over its whole depth, height and width with
    probability `rate`, and the kept ones are scaled by `1 / (1 - rate)`. In inference the input
    passes unchanged.

    Args:
        rate: float in [0, 1], the probability of dropping a channel.
        data_format: "channels_last" (batch, depth, height, width, channels) or
            "channels_first" (batch, channels, depth, height, width); default
            `tripod.config.image_data_format()`.
        seed: int, the seed of the layer's random generator.
        name: str, the layer's name (default: made from the class name).
        dtype: the layer's dtype or dtype policy (default: the global policy).

    Raises:
        ValueError: `rate` is not a number in [0, 1] or `data_format` is unknown; on the first
            call, the input does not have rank 5.

    Examples:
        >>> dropout = tripod.layers.SpatialDropout3D(0.5, seed=1)
        >>> x = np.ones((2, 2, 2, 2, 3))
        >>> y = tripod.ops.convert_to_numpy(dropout(x, training=True))
        >>> bool(np.all(y == y[:, :1, :1, :1, :]))  # one mask for all voxels of a channel
        True
        >>> tuple(y.shape)
        (2, 2, 2, 2, 3)
    """

    _rank = 3

    def __init__(self, rate, data_format=None, seed=None, name=None, dtype=None):
        super().__init__(rate, data_format=data_format, seed=seed, name=name, dtype=dtype)
