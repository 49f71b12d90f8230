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
    """Drops whole channels of (batch, steps, channels) inputs."""

    _rank = 1

    def __init__(self, rate, seed=None, name=None, dtype=None):
        super().__init__(rate, data_format="channels_last", seed=seed, name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["data_format"]
        return config


class SpatialDropout2D(_SpatialDropout):
    """Drops whole channels of 4D image inputs."""

    _rank = 2

    def __init__(self, rate, data_format=None, seed=None, name=None, dtype=None):
        super().__init__(rate, data_format=data_format, seed=seed, name=name, dtype=dtype)


class SpatialDropout3D(_SpatialDropout):
    """Drops whole channels of 5D volume inputs."""

    _rank = 3

    def __init__(self, rate, data_format=None, seed=None, name=None, dtype=None):
        super().__init__(rate, data_format=data_format, seed=seed, name=name, dtype=dtype)
