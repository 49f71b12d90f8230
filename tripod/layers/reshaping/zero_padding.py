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
    """Pads the time axis of (batch, steps, features) inputs (or (batch, features, steps))."""

    rank = 1

    def __init__(self, padding=1, data_format=None, **kwargs):
        padding = padding if isinstance(padding, int) else (tuple(padding),)
        super().__init__(padding, data_format, **kwargs)

    def get_config(self):
        return {**super().get_config(), "padding": self.padding[0]}


class ZeroPadding2D(_ZeroPadding):
    """Pads the height and width axes of images."""

    rank = 2

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(padding, data_format, **kwargs)


class ZeroPadding3D(_ZeroPadding):
    """Pads the three spatial axes of volumes."""

    rank = 3

    def __init__(self, padding=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(padding, data_format, **kwargs)
