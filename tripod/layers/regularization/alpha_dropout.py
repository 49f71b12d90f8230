"""`AlphaDropout`: dropout that keeps the mean and variance of self-normalizing (SELU)
activations."""

from tripod.backends import active
from tripod.layers.regularization.dropout import Dropout

ops = active()

# SELU's constants: dropped entries go to SELU's negative saturation value -scale * alpha.
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946
_SATURATION = -_SELU_ALPHA * _SELU_SCALE


class AlphaDropout(Dropout):
    """In training, sets entries to SELU's saturation value with probability `rate`, then applies
    the affine map that restores the input's mean and variance."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(rate, noise_shape=noise_shape, seed=seed, **kwargs)
        if 0 < self.rate < 1:
            self._a = ((1 - self.rate) * (1 + self.rate * _SATURATION**2)) ** -0.5
            self._b = -self._a * _SATURATION * self.rate

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        if self.rate == 1:
            return ops.zeros_like(inputs)
        shape = self._noise_shape(inputs) or ops.shape(inputs)
        keep = ops.greater_equal(ops.uniform(shape, seed=self.seed_generator), self.rate)
        keep = ops.cast(keep, ops.dtype(inputs))
        dropped = ops.add(
            ops.multiply(inputs, keep), ops.multiply(ops.subtract(1.0, keep), _SATURATION)
        )
        return ops.add(ops.multiply(dropped, self._a), self._b)
