"""`Dot`: the batched dot product of two tensors along given axes."""

from tripod.backends import active
from tripod.layers.merging.base_merge import _Merge

ops = active()

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class Dot(_Merge):
    """The dot product of two tensors along given axes, sample by sample.

    Called on `[x, y]`: axis `axes[0]` of `x` is contracted with axis `axes[1]` of `y` (same
    size), for each sample of the batch. The output keeps the batch axis, then the other axes
    of `x`, then those of `y`; two vectors per sample give shape `(batch, 1)`.

    Args:
        axes: int (the same axis of both inputs) or a pair of ints, the axes contracted; they
            may not be the batch axis (0), and negative values count from the end.
        normalize: bool, L2-normalize both inputs along those axes first, so that the output
            is the cosine similarity (default False).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `axes` is not an int or a pair of ints; on the call, the inputs are not
            two, an axis is the batch axis or out of range, or the contracted sizes differ.

    Examples:
        >>> x, y = np.array([[1.0, 2.0, 3.0]]), np.array([[4.0, 5.0, 6.0]])
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.Dot(axes=1)([x, y])))
        [[32.]]
        >>> cosine = tripod.layers.Dot(axes=1, normalize=True)([x, 2 * x])
        >>> print(np.round(tripod.ops.convert_to_numpy(cosine), 4))
        [[1.]]
        >>> a, b = np.zeros((2, 3, 4)), np.zeros((2, 5, 4))
        >>> tuple(tripod.layers.Dot(axes=(2, 2))([a, b]).shape)
        (2, 3, 5)
    """

    num_inputs = 2

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        valid = isinstance(axes, int) or (
            isinstance(axes, (list, tuple))
            and len(axes) == 2
            and all(isinstance(a, int) for a in axes)
        )
        if not valid:
            raise ValueError(
                f"Dot '{self.name}': axes must be an integer or a pair of integers, received "
                f"axes={axes!r}."
            )
        self.axes = axes
        self.normalize = normalize
        self.supports_masking = True
        self._plans = {}  # (rank of x, rank of y) -> _plan's result

    def _plan(self, shapes):
        """The contracted axis of each input and the einsum equation of the batched dot."""
        self._check_list(shapes)
        (a, b) = (tuple(s) for s in shapes)
        pair = (self.axes, self.axes) if isinstance(self.axes, int) else tuple(self.axes)
        axes = []
        for axis, shape in zip(pair, (a, b)):
            if not -len(shape) <= axis < len(shape) or axis % len(shape) == 0:
                raise ValueError(
                    f"Dot '{self.name}': axes={self.axes} must name a non-batch axis of each "
                    "input, "
                    f"received input shapes {a} and {b}."
                )
            axes.append(axis % len(shape))
        if a[axes[0]] is not None and b[axes[1]] is not None and a[axes[0]] != b[axes[1]]:
            raise ValueError(
                f"Dot '{self.name}': incompatible input shapes: axis values {a[axes[0]]} (at axis "
                f"{axes[0]}) != {b[axes[1]]} (at axis {axes[1]}). Full input shapes: {a}, {b}."
            )
        if len(a) + len(b) > len(_LETTERS):
            raise ValueError(
                f"Dot '{self.name}': inputs of ranks {len(a)} and {len(b)} are too large."
            )
        letters_a = _LETTERS[: len(a)]
        letters_b = "a" + _LETTERS[len(a) : len(a) + len(b) - 1]
        letters_b = letters_b[: axes[1]] + letters_a[axes[0]] + letters_b[axes[1] + 1 :]
        out = letters_a.replace(letters_a[axes[0]], "") + letters_b[1:].replace(
            letters_a[axes[0]], ""
        )
        return axes, f"{letters_a},{letters_b}->{out}"

    def _output_shape(self, input_shape):
        axes, _ = self._plan(input_shape)
        a, b = (tuple(s) for s in input_shape)
        rest = a[1 : axes[0]] + a[axes[0] + 1 :] + b[1 : axes[1]] + b[axes[1] + 1 :]
        return (a[0],) + (rest if rest else (1,))

    def call(self, inputs, mask=None):
        x, y = inputs
        key = (len(x.shape), len(y.shape))
        if key not in self._plans:
            self._plans[key] = self._plan([tuple(x.shape), tuple(y.shape)])
        axes, equation = self._plans[key]
        if self.normalize:
            x = ops.normalize(x, axis=axes[0])
            y = ops.normalize(y, axis=axes[1])
        out = ops.einsum(equation, x, y)
        return ops.expand_dims(out, 1) if len(out.shape) == 1 else out

    def compute_mask(self, inputs, mask=None):
        return None

    def get_config(self):
        return {**super().get_config(), "axes": self.axes, "normalize": self.normalize}
