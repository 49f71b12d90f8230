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
    """Repeats each timestep of (batch, steps, features) inputs `size` times."""

    rank = 1

    def __init__(self, size=2, **kwargs):
        super().__init__(size, "channels_last", **kwargs)

    def get_config(self):
        config = super().get_config()
        del config["data_format"]
        return {**config, "size": self.size[0]}


class UpSampling2D(_UpSampling):
    """Scales images up by `size`: nearest repeats pixels, other modes interpolate."""

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
    """Repeats each voxel of volumes `size` times along each spatial axis."""

    rank = 3

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(size, data_format, **kwargs)
