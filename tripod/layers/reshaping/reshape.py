"""`Reshape`: gives each sample a new shape (one dimension may be -1, inferred)."""

import math

from tripod.backends import active
from tripod.layers.layer import Layer

ops = active()


class Reshape(Layer):
    """(batch, ...) -> (batch, *target_shape)."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        target = tuple(target_shape) if isinstance(target_shape, (tuple, list)) else None
        if target is None or not all(isinstance(d, int) and (d > 0 or d == -1) for d in target):
            raise ValueError(
                f"Reshape '{self.name}': target_shape must be a tuple of positive integers (one "
                "may "
                f"be -1), received {target_shape!r}."
            )
        if target.count(-1) > 1:
            raise ValueError(
                f"Reshape '{self.name}': there must be at most one unknown dimension (-1) in "
                f"target_shape, received target_shape={target}."
            )
        self.target_shape = target
        self._fixed = math.prod(d for d in target if d != -1)

    def _resolve(self, sample_shape):
        """target_shape with -1 replaced by its size (None when the input size is unknown)."""
        if not all(isinstance(d, int) for d in sample_shape):
            return tuple(None if d == -1 else d for d in self.target_shape)
        size = math.prod(sample_shape)
        if (-1 in self.target_shape and size % self._fixed) or (
            -1 not in self.target_shape and size != self._fixed
        ):
            raise ValueError(
                f"Reshape '{self.name}': the total size of each sample must be unchanged, received "
                f"input shape {tuple(sample_shape)} (size {size}) and "
                f"target_shape={self.target_shape}."
            )
        return tuple(size // self._fixed if d == -1 else d for d in self.target_shape)

    def call(self, inputs):
        shape = ops.shape(inputs)
        resolved = self._resolve(shape[1:])
        if None in resolved:
            return ops.reshape(inputs, (shape[0],) + self.target_shape)
        return ops.reshape(inputs, (-1,) + resolved)

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + self._resolve(input_shape[1:])

    def get_config(self):
        return {**super().get_config(), "target_shape": self.target_shape}
