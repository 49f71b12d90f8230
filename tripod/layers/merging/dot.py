"""`Dot`: the batched dot product of two tensors along given axes."""

from tripod.backends import active
from tripod.layers.merging.base_merge import _Merge

ops = active()

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class Dot(_Merge):
    """Contracts axis `axes[0]` of the first input with axis `axes[1]` of the second, per sample;
    with `normalize`, the inputs are L2-normalized along those axes first (cosine similarity)."""

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

    def compute_mask(self, inputs, previous_mask=None):
        return None

    def get_config(self):
        return {**super().get_config(), "axes": self.axes, "normalize": self.normalize}
