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
    """Dropout for self-normalizing networks (SELU activations): keeps the mean and variance.

    In training, each entry (or each slice with `noise_shape`) is set with probability `rate` to
    SELU's negative saturation value `-scale * alpha` (about -1.758) instead of zero, then an
    affine map `a * x + b` restores the mean and variance that inputs of zero mean and unit
    variance had. In inference the input passes unchanged. `rate=1` gives zeros in training.

    Args:
        rate: float in [0, 1], the probability of dropping an entry.
        noise_shape: tuple, the shape of the keep/drop mask, broadcast over the input (None
            entries take the input's size); default the input's shape.
        seed: int, the seed of the layer's random generator.
        **kwargs: the `Layer` arguments (name, dtype, ...).

    Raises:
        ValueError: `rate` is not a number in [0, 1].

    Examples:
        >>> dropout = tripod.layers.AlphaDropout(0.2, seed=1)
        >>> x = np.ones((2, 4))
        >>> print(tripod.ops.convert_to_numpy(dropout(x)))  # inference: unchanged
        [[1. 1. 1. 1.]
         [1. 1. 1. 1.]]
        >>> tuple(dropout(x, training=True).shape)
        (2, 4)
    """

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
