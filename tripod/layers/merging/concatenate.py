"""`Concatenate`: joins a list of tensors along one axis."""

from tripod.backends import active
from tripod.layers.merging.base_merge import _Merge

ops = active()


class Concatenate(_Merge):
    """Joins a list of tensors along one axis.

    The inputs must have the same rank and the same sizes on every other axis; the output's
    size along `axis` is the sum of theirs. Masks are joined too (an input without one counts
    as all valid).

    Args:
        axis: int, the axis joined along (negative counts from the end); default -1.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: the inputs are not a list, have different ranks, have no axis `axis`, or
            differ in size on another axis.

    Examples:
        >>> x, y = np.array([[1.0, 2.0]]), np.array([[3.0, 4.0, 5.0]])
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.Concatenate()([x, y])))
        [[1. 2. 3. 4. 5.]]
        >>> a, b = np.zeros((2, 3, 4)), np.zeros((2, 5, 4))
        >>> tuple(tripod.layers.Concatenate(axis=1)([a, b]).shape)
        (2, 8, 4)
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def _output_shape(self, input_shape):
        self._check_list(input_shape)
        shapes = [tuple(s) for s in input_shape]
        rank = len(shapes[0])
        if not -rank <= self.axis < rank or any(len(s) != rank for s in shapes):
            raise ValueError(
                f"{self._label()}: requires inputs of the same rank with an axis {self.axis}, "
                f"received input_shape={shapes}."
            )
        axis = self.axis % rank
        result = list(shapes[0])
        for shape in shapes[1:]:
            for i, (a, b) in enumerate(zip(result, shape)):
                if i == axis:
                    result[i] = None if a is None or b is None else a + b
                elif a is None:
                    result[i] = b
                elif b is not None and a != b:
                    raise ValueError(
                        f"{self._label()}: requires inputs with matching shapes except for the "
                        f"concatenation axis {self.axis}, received input_shape={shapes}."
                    )
        return tuple(result)

    def call(self, inputs, mask=None):
        return ops.concatenate(inputs, axis=self.axis)

    def compute_mask(self, inputs, mask=None):
        """Masks joined along `axis` (missing ones all valid), then reduced over the last axis."""
        if mask is None:
            return None
        self._check_masks(inputs, mask)
        if all(m is None for m in mask):
            return None
        full = []
        for x, m in zip(inputs, mask):
            if m is None:
                full.append(ops.ones_like(x, dtype="bool"))
                continue
            m = ops.cast(m, "bool")
            if len(m.shape) < len(x.shape):
                m = ops.broadcast_to(ops.expand_dims(m, -1), ops.shape(x))
            full.append(m)
        return ops.any(ops.concatenate(full, axis=self.axis), axis=-1)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}
