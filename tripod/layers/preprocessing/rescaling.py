"""`Rescaling`: inputs * scale + offset, in the layer's compute dtype."""

import numpy as np

from tripod.backends import config
from tripod.layers.preprocessing.data_layer import Constant, DataLayer


class Rescaling(DataLayer):
    """Rescale the inputs: `inputs * scale + offset`, in the compute dtype.

    `scale` and `offset` are numbers, or lists of one value per channel that broadcast against the
    last axis (under the global "channels_first" image format, against axis -3).

    Args:
        scale: number or list of numbers, the factor.
        offset: number or list of numbers, added after scaling (default 0.0).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Examples:
        >>> layer = tripod.layers.Rescaling(scale=1 / 127.5, offset=-1.0)  # 0..255 to -1..1
        >>> tripod.ops.convert_to_numpy(layer(np.array([0.0, 127.5, 255.0]))).tolist()
        [-1.0, 0.0, 1.0]
    """

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale
        self.offset = offset
        self.supports_masking = True

    def build(self, input_shape):
        self._scale = Constant(_per_channel(self.scale), self.compute_dtype)
        self._offset = Constant(_per_channel(self.offset), self.compute_dtype)
        self.built = True

    def call(self, inputs):
        ops = self.backend
        x = ops.cast(inputs, self.compute_dtype)
        return ops.add(ops.multiply(x, self._scale.on(ops)), self._offset.on(ops))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "scale": self.scale, "offset": self.offset}


def _per_channel(value):
    """`value` shaped to broadcast over the channels of images: as given under channels_last;
    a list of C values becomes (C, 1, 1) under channels_first."""
    value = np.asarray(value)
    if value.ndim and config.image_data_format() == "channels_first":
        return value.reshape(value.shape + (1,) * (3 - value.ndim))
    return value
