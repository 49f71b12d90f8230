"""`Step`: the object a backend's `compile_step` returns."""


class Step:
    """Runs a (possibly compiled) step function on a batch; `sync()` has nothing to write back."""

    def __init__(self, fn):
        self._fn = fn

    def __call__(self, batch):
        return self._fn(batch)

    def sync(self):
        """Nothing to do: this backend's step updates variables in place."""
