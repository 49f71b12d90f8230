"""`Masking`: marks timesteps whose features all equal `mask_value` as padding."""

from tripod.backends import active
from tripod.layers.layer import Layer

ops = active()


class Masking(Layer):
    """Zeroes the timesteps whose every feature equals `mask_value` and masks them downstream."""

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value
        self.supports_masking = True

    def compute_mask(self, inputs, previous_mask=None):
        return ops.any(ops.not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        keep = ops.any(ops.not_equal(inputs, self.mask_value), axis=-1, keepdims=True)
        return ops.multiply(inputs, ops.cast(keep, ops.dtype(inputs)))

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "mask_value": self.mask_value}
