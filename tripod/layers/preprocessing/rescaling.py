"""`Rescaling`: inputs * scale + offset, in the layer's compute dtype."""

from tripod.layers.preprocessing.data_layer import Constant, DataLayer


class Rescaling(DataLayer):
    """Multiply the inputs by `scale` and add `offset` (scalars or per-channel lists)."""

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale
        self.offset = offset
        self.supports_masking = True

    def build(self, input_shape):
        self._scale = Constant(self.scale, self.compute_dtype)
        self._offset = Constant(self.offset, self.compute_dtype)
        self.built = True

    def call(self, inputs):
        ops = self.backend
        x = ops.cast(inputs, self.compute_dtype)
        return ops.add(ops.multiply(x, self._scale.on(ops)), self._offset.on(ops))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "scale": self.scale, "offset": self.offset}
