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
    """Crops the time axis of (batch, steps, features) inputs."""

    rank = 1

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__((cropping,), "channels_last", **kwargs)

    def get_config(self):
        config = super().get_config()
        del config["data_format"]
        return {**config, "cropping": self.cropping[0]}


class Cropping2D(_Cropping):
    """Crops the height and width axes of images."""

    rank = 2

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(cropping, data_format, **kwargs)


class Cropping3D(_Cropping):
    """Crops the three spatial axes of volumes."""

    rank = 3

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(cropping, data_format, **kwargs)
