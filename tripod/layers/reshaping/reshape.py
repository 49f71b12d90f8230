"""`Reshape`: gives each sample a new shape (one dimension may be -1, inferred)."""

import math

from tripod.backends import active
from tripod.layers.layer import Layer

ops = active()


class Reshape(Layer):
    """Gives each example a new shape: `(batch, ...)` -> `(batch, *target_shape)`.

    The batch axis is kept; the number of entries of each example must stay the same. One entry
    of `target_shape` may be -1, inferred from the others.

    Args:
        target_shape: tuple (or list) of ints > 0, the new shape of each example, without the
            batch axis; at most one entry may be -1.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `target_shape` is not a tuple of positive ints with at most one -1; on a
            call, the example's size differs from the target's.

    Examples:
        >>> tuple(tripod.layers.Reshape((3, 4))(np.zeros((2, 12))).shape)
        (2, 3, 4)
        >>> y = tripod.layers.Reshape((-1, 2))(np.arange(6.0).reshape(1, 6))
        >>> print(tripod.ops.convert_to_numpy(y)[0])
        [[0. 1.]
         [2. 3.]
         [4. 5.]]
    """

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
