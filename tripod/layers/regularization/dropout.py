"""`Dropout`: zero random entries in training, scaling the rest so the expected sum is kept."""

from tripod.backends import active
from tripod.backends.common.seed import SeedGenerator
from tripod.layers.layer import Layer
from tripod.layers.regularization._rate import check_rate

ops = active()


class Dropout(Layer):
    """Randomly zeroes entries while training, to regularize; passes inputs unchanged otherwise.

    In training (`training=True`, as `fit` calls it) each entry, or each slice with
    `noise_shape`, is zeroed with probability `rate` and the rest are scaled by
    `1 / (1 - rate)`, so the expected sum is unchanged.

    Args:
        rate: float in [0, 1], the probability of dropping an entry.
        noise_shape: tuple, the shape of the keep/drop mask, broadcast over the input: e.g.
            `(batch, 1, features)` drops the same features at every time step. None entries
            take the input's size; default the input's shape.
        seed: int, the seed of the layer's random generator (reproducible on one backend).
        **kwargs: the `Layer` arguments (name, dtype, ...).

    Raises:
        ValueError: `rate` is not a number in [0, 1].

    Examples:
        >>> dropout = tripod.layers.Dropout(0.5, seed=1)
        >>> x = np.ones((2, 100))
        >>> bool(np.all(tripod.ops.convert_to_numpy(dropout(x)) == 1.0))  # inference
        True
        >>> np.unique(tripod.ops.convert_to_numpy(dropout(x, training=True))).tolist()
        [0.0, 2.0]
    """

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rate = check_rate(rate, f"{type(self).__name__} '{self.name}'")
        self.noise_shape = None if noise_shape is None else tuple(noise_shape)
        self.seed = seed
        if self.rate > 0:
            self.seed_generator = SeedGenerator(seed)
        self.supports_masking = True
        self.built = True

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        return ops.dropout(
            inputs, self.rate, noise_shape=self._noise_shape(inputs), seed=self.seed_generator
        )

    def _noise_shape(self, inputs):
        """`noise_shape` with its None entries taken from the input's shape."""
        if self.noise_shape is None or None not in self.noise_shape:
            return self.noise_shape
        shape = ops.shape(inputs)
        return tuple(shape[i] if size is None else size for i, size in enumerate(self.noise_shape))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {
            **super().get_config(),
            "rate": self.rate,
            "seed": self.seed,
            "noise_shape": self.noise_shape,
        }
