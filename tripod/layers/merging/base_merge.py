"""`_Merge`: the base of the layers that combine a list of same-shaped tensors elementwise."""

from tripod.backends import active
from tripod.layers.layer import Layer

ops = active()


def _broadcast_dim(a, b):
    """The size two broadcast-compatible sizes give (None when unknown), or raises."""
    if a == 1:
        return b
    if b == 1:
        return a
    if a is None or b is None:
        return a if b is None else b
    if a != b:
        raise ValueError
    return a


class _Merge(Layer):
    """Combines a list of tensors with `_merge_function` after broadcasting their shapes;
    inputs of lower rank get size-1 axes inserted after the batch axis.

    `call` accepts the inputs' masks only so that functional models hand them to `compute_mask`;
    the values themselves do not depend on them.
    """

    #: fewest inputs the layer accepts, and the exact count when it needs one (Subtract: 2)
    min_inputs = 1
    num_inputs = None

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def _label(self):
        return f"{type(self).__name__} '{self.name}'"

    def _check_list(self, input_shape):
        if (
            not isinstance(input_shape, (list, tuple))
            or not input_shape
            or not isinstance(input_shape[0], (list, tuple))
        ):
            raise ValueError(
                f"{self._label()}: a merge layer must be called on a list of inputs, received "
                f"input_shape={input_shape}."
            )
        count = len(input_shape)
        if (self.num_inputs is not None and count != self.num_inputs) or count < self.min_inputs:
            expected = (
                f"exactly {self.num_inputs}"
                if self.num_inputs is not None
                else f"at least {self.min_inputs}"
            )
            raise ValueError(
                f"{self._label()}: expects {expected} inputs, received {count}: "
                f"input_shape={list(input_shape)}."
            )

    def _output_shape(self, input_shape):
        """The broadcast shape of the inputs, with a clear error naming them when impossible."""
        self._check_list(input_shape)
        shapes = [tuple(s) for s in input_shape]
        rank = max(len(s) for s in shapes)
        result = None
        for shape in shapes:
            shape = shape[:1] + (1,) * (rank - len(shape)) + shape[1:] if shape else shape
            if result is None:
                result = list(shape)
                continue
            try:
                result = [_broadcast_dim(a, b) for a, b in zip(result, shape)]
            except ValueError:
                raise ValueError(
                    f"{self._label()}: inputs have incompatible shapes "
                    f"{[tuple(s) for s in input_shape]}."
                ) from None
        return tuple(result)

    def build(self, input_shape):
        self._output_shape(input_shape)
        self.built = True

    def call(self, inputs, mask=None):
        rank = max(len(x.shape) for x in inputs)
        aligned = []
        for x in inputs:
            for _ in range(rank - len(x.shape)):
                x = ops.expand_dims(x, 1)
            aligned.append(x)
        return self._merge_function(aligned)

    def _merge_function(self, inputs):
        raise NotImplementedError(f"{type(self).__name__} must implement _merge_function.")

    def compute_output_shape(self, input_shape):
        return self._output_shape(input_shape)

    def compute_mask(self, inputs, mask=None):
        """A position is valid when any input's mask marks it valid; no mask if one input has
        none."""
        if mask is None:
            return None
        self._check_masks(inputs, mask)
        if any(m is None for m in mask):
            return None
        return ops.any(ops.stack([ops.cast(m, "bool") for m in mask], axis=0), axis=0)

    def _check_masks(self, inputs, masks):
        """Fail unless `masks` is a list with one entry (a mask or None) per input."""
        if not isinstance(masks, (list, tuple)) or len(masks) != len(inputs):
            raise ValueError(
                f"{self._label()}: the mask must be a list with one entry per input, "
                f"received {masks!r}."
            )
