"""`RepeatVector`: repeats a vector n times along a new time axis."""

from tripod.backends import active
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer

ops = active()


class RepeatVector(Layer):
    """Repeats each input vector `n` times along a new axis: `(batch, features)` ->
    `(batch, n, features)`.

    Args:
        n: int >= 0, the number of repetitions.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `n` is not a non-negative integer; on a call, the input is not 2D.

    Examples:
        >>> y = tripod.layers.RepeatVector(3)(np.array([[1.0, 2.0]]))
        >>> print(tripod.ops.convert_to_numpy(y))
        [[[1. 2.]
          [1. 2.]
          [1. 2.]]]
    """

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ValueError(
                f"RepeatVector '{self.name}': n must be a non-negative integer, received n={n!r}."
            )
        self.n = n
        self.input_spec = InputSpec(ndim=2)

    def call(self, inputs):
        return ops.repeat(ops.expand_dims(inputs, 1), self.n, axis=1)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.n, input_shape[1])

    def get_config(self):
        return {**super().get_config(), "n": self.n}
