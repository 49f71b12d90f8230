"""`Step`: the object a backend's `compile_step` returns."""

from tripod.backends.common import tree


def batch_converter(convert):
    """A function mapping `convert` over a batch's arrays (None entries stay None)."""

    def one(part):
        if part is None:
            return None
        return tree.map_structure(one, part) if tree.is_nested(part) else convert(part)

    def to_tensors(batch):
        # A batch is a flat (x, y, sample_weight) tuple of arrays nearly always: no tree walk
        return tuple([one(part) for part in batch]) if type(batch) is tuple else one(batch)

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
