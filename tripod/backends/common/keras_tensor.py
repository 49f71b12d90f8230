"""`KerasTensor`: a symbolic tensor — a shape (None for unknown dims) and a dtype, no values.

`tripod.Input` returns one; layers and ops called on them return more, recording the graph that
a functional model runs. Backends see them only as specs in `compute_output_spec`.
"""

from tripod.backends import dtypes
from tripod.backends.common import tree


class KerasTensor:
    """A symbolic tensor: shape and dtype, plus the history that produced it."""

    def __init__(
        self,
        shape,
        dtype="float32",
        sparse=False,
        ragged=False,
        record_history=True,
        name=None,
        **kwargs,
    ):
        self.shape = tuple(None if d is None else int(d) for d in shape)
        self.dtype = dtypes.standardize_dtype(dtype)
        if self.dtype == dtypes.STRING:
            label = f"'{name}' " if name else ""
            dtypes.check_string_tensors(f"The symbolic tensor {label}of shape {self.shape}")
        self.sparse = bool(sparse)
        self.ragged = bool(ragged)
        self.record_history = record_history
        self.name = name
        #: (operation, node index, tensor index) of the call that produced it, or None
        self._keras_history = kwargs.pop("history", None)
        #: the symbolic mask travelling with this tensor, or None
        self._keras_mask = None
        if kwargs:
            raise TypeError(f"KerasTensor: unexpected arguments {sorted(kwargs)}.")

    @property
    def ndim(self):
        """The number of dimensions."""
        return len(self.shape)

    def __repr__(self):
        name = f", name={self.name}" if self.name else ""
        return f"<KerasTensor shape={self.shape}, dtype={self.dtype}{name}>"

    def __bool__(self):
        raise TypeError("A symbolic KerasTensor has no truth value: it holds no data yet.")

    def __array__(self, *args, **kwargs):
        raise TypeError(
            "A symbolic KerasTensor cannot be converted to a NumPy array: it holds no data. "
            "Use it to build a functional Model, then call the model on real data."
        )

    def __iter__(self):
        raise TypeError("A symbolic KerasTensor cannot be iterated over.")

    __hash__ = object.__hash__


def is_keras_tensor(x):
    """Whether `x` is a symbolic `KerasTensor`."""
    return isinstance(x, KerasTensor)


def any_symbolic(args=(), kwargs=None):
    """Whether any leaf of `args` / `kwargs` is a KerasTensor (the symbolic path of a call)."""
    for a in args:
        if isinstance(a, KerasTensor):
            return True
        if isinstance(a, (list, tuple, dict)) and any(
            isinstance(x, KerasTensor) for x in tree.flatten(a)
        ):
            return True
    if kwargs:
        return any_symbolic(tuple(kwargs.values()))
    return False
