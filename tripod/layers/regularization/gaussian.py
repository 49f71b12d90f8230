"""`GaussianNoise` and `GaussianDropout`: additive and multiplicative Gaussian noise in training."""

import math

from tripod.backends import active
from tripod.backends.common.seed import SeedGenerator
from tripod.layers.layer import Layer
from tripod.layers.regularization._rate import check_rate

ops = active()


class GaussianNoise(Layer):
    """Adds zero-mean Gaussian noise of standard deviation `stddev` in training.

    A regularizer (and a simple data augmentation) for real-valued inputs; in inference the
    input passes unchanged. The output has the input's shape.

    Args:
        stddev: float >= 0, the standard deviation of the noise (0 adds none).
        seed: int, the seed of the layer's random generator.
        **kwargs: the `Layer` arguments (name, dtype, ...).

    Raises:
        ValueError: `stddev` is not a non-negative number.

    Examples:
        >>> noise = tripod.layers.GaussianNoise(0.1, seed=1)
        >>> x = np.ones((2, 3))
        >>> print(tripod.ops.convert_to_numpy(noise(x)))  # inference: unchanged
        [[1. 1. 1.]
         [1. 1. 1.]]
        >>> tuple(noise(x, training=True).shape)
        (2, 3)
    """

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(stddev, bool) or not isinstance(stddev, (int, float)) or stddev < 0:
            raise ValueError(
                f"GaussianNoise '{self.name}': stddev must be a non-negative number, received "
                f"{stddev!r}."
            )
        self.stddev = stddev
        self.seed = seed
        if stddev > 0:
            self.seed_generator = SeedGenerator(seed)
        self.supports_masking = True
        self.built = True

    def call(self, inputs, training=False):
        if not training or self.stddev == 0:
            return inputs
        noise = ops.normal(
            ops.shape(inputs),
            mean=0.0,
            stddev=self.stddev,
            dtype=ops.dtype(inputs),
            seed=self.seed_generator,
        )
        return ops.add(inputs, noise)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "stddev": self.stddev, "seed": self.seed}


class GaussianDropout(Layer):
    """Multiplies by Gaussian noise of mean 1 and variance `rate / (1 - rate)` in training.

    The multiplicative counterpart of `Dropout`: the expected value of each entry is kept. In
    inference the input passes unchanged. The output has the input's shape.

    Args:
        rate: float in [0, 1), the drop probability that sets the noise's variance
            `rate / (1 - rate)` (0 adds no noise).
        seed: int, the seed of the layer's random generator.
        **kwargs: the `Layer` arguments (name, dtype, ...).

    Raises:
        ValueError: `rate` is not a number in [0, 1).

    Examples:
        >>> dropout = tripod.layers.GaussianDropout(0.5, seed=1)
        >>> x = np.ones((2, 3))
        >>> print(tripod.ops.convert_to_numpy(dropout(x)))  # inference: unchanged
        [[1. 1. 1.]
         [1. 1. 1.]]
        >>> tuple(dropout(x, training=True).shape)
        (2, 3)
    """

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rate = check_rate(rate, f"GaussianDropout '{self.name}'")
        if self.rate == 1:
            raise ValueError(
                f"GaussianDropout '{self.name}': rate must be below 1, received {rate!r}."
            )
        self.seed = seed
        if self.rate > 0:
            self.seed_generator = SeedGenerator(seed)
        self._stddev = math.sqrt(self.rate / (1.0 - self.rate))
        self.supports_masking = True
        self.built = True

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        noise = ops.normal(
            ops.shape(inputs),
            mean=1.0,
            stddev=self._stddev,
            dtype=ops.dtype(inputs),
            seed=self.seed_generator,
        )
        return ops.multiply(inputs, noise)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}
