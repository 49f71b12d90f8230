"""`Masking`: marks timesteps whose features all equal `mask_value` as padding."""

from tripod.backends import active
from tripod.layers.layer import Layer

ops = active()


class Masking(Layer):
    """Marks as padding the timesteps whose every feature equals `mask_value`.

    For inputs of shape `(batch, steps, features)`: the output has the input's shape, with the
    padding steps set to zero, and carries a `(batch, steps)` boolean mask (False at padding)
    that mask-aware layers downstream (e.g. `LSTM`) honour.

    Args:
        mask_value: float, the value that marks padding when every feature of a step holds it;
            default 0.0.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Examples:
        >>> masking = tripod.layers.Masking(mask_value=0.0)
        >>> x = np.array([[[1.0, 2.0], [0.0, 0.0], [0.0, 3.0]]])
        >>> print(tripod.ops.convert_to_numpy(masking.compute_mask(x)))
        [[ True False  True]]
        >>> print(tripod.ops.convert_to_numpy(masking(x)))
        [[[1. 2.]
          [0. 0.]
          [0. 3.]]]
    """

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value
        self.supports_masking = True

    def compute_mask(self, inputs, mask=None):
        return ops.any(ops.not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        keep = ops.any(ops.not_equal(inputs, self.mask_value), axis=-1, keepdims=True)
        return ops.multiply(inputs, ops.cast(keep, ops.dtype(inputs)))

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "mask_value": self.mask_value}
