"""`Initializer`: the base class of every initializer (a callable returning a NumPy array)."""


class Initializer:
    """Base class: `initializer(shape, dtype)` returns the initial value as a NumPy array."""

    def __call__(self, shape, dtype=None):
        raise NotImplementedError(f"{type(self).__name__} must implement __call__(shape, dtype).")

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def clone(self):
        return type(self).from_config(self.get_config())
