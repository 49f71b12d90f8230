"""`Permute`: reorders the non-batch axes."""

from tripod.backends import active
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer

ops = active()


class Permute(Layer):
    """Reorders the non-batch axes of the input: output axis i is input axis `dims[i - 1]`.

    The axes are numbered from 1 (the batch axis, 0, stays first): `Permute((2, 1))` swaps the
    two axes of `(batch, steps, features)` inputs.

    Args:
        dims: tuple of ints, a permutation of `1..n` for inputs of rank `n + 1`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `dims` is not a permutation of `1..len(dims)`; on a call, the input's rank
            is not `len(dims) + 1`.

    Examples:
        >>> tuple(tripod.layers.Permute((2, 1))(np.zeros((4, 10, 3))).shape)
        (4, 3, 10)
        >>> x = np.arange(6.0).reshape(1, 2, 3)
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.Permute((2, 1))(x))[0])
        [[0. 3.]
         [1. 4.]
         [2. 5.]]
    """

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(
                f"Permute '{self.name}': dims must be a permutation of 1..{len(self.dims)} (the "
                f"axes after the batch axis), received dims={self.dims}."
            )
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)
        self._perm = (0,) + self.dims

    def call(self, inputs):
        return ops.transpose(inputs, self._perm)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[i] for i in self._perm)

    def get_config(self):
        return {**super().get_config(), "dims": self.dims}
