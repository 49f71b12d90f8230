"""`Step`: the object a backend's `compile_step` returns."""

from tripod.backends.common import tree


def batch_converter(convert):
    """A function mapping `convert` over a batch's arrays (None entries stay None)."""

    def to_tensors(batch):
        return tree.map_structure(lambda a: a if a is None else convert(a), batch)

    return to_tensors


class Step:
    """Runs a (possibly compiled) step function on a batch; `sync()` has nothing to write back.

    `convert` (optional) turns the batch's host arrays into tensors first: eager steps want
    backend tensors, while a compiled function takes NumPy arrays directly (and faster).
    """

    def __init__(self, fn, convert=None):
        self._fn = fn
        self._convert = convert

    def __call__(self, batch):
        return self._fn(batch if self._convert is None else self._convert(batch))

    def sync(self):
        """Nothing to do: this backend's step updates variables in place."""
