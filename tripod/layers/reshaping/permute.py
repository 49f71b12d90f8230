"""`Permute`: reorders the non-batch axes."""

from tripod.backends import active
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer

ops = active()


class Permute(Layer):
    """Transposes axes 1..n of the input into the order `dims` (1-based; the batch stays first)."""

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
