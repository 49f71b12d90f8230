"""`tripod.optimizers.legacy`: the Keras 2 optimizer names, which Keras 3 keeps only to refuse.

Constructing one raises an ImportError pointing to `tripod.optimizers`, as Keras 3 does; a script
written for `tf.keras` 2 fails at the line to change rather than at a missing attribute.
"""


class _Refused:
    """A Keras 2 optimizer name: constructing it raises, naming the Keras 3 optimizer to use."""

    def __init__(self, *args, **kwargs):
        name = type(self).__name__
        raise ImportError(
            f"`optimizers.legacy.{name}` is a Keras 2 optimizer, which Keras 3 and tripod do not "
            f"have: use `tripod.optimizers.{name}` (Keras 3's optimizer of that name)."
        )


class Optimizer(_Refused):
    """Keras 2's optimizer base; use `tripod.optimizers.Optimizer`."""


class Adagrad(_Refused):
    """Keras 2's Adagrad; use `tripod.optimizers.Adagrad`."""


class Adam(_Refused):
    """Keras 2's Adam; use `tripod.optimizers.Adam`."""


class Ftrl(_Refused):
    """Keras 2's Ftrl; use `tripod.optimizers.Ftrl`."""


class RMSprop(_Refused):
    """Keras 2's RMSprop; use `tripod.optimizers.RMSprop`."""


class SGD(_Refused):
    """Keras 2's SGD; use `tripod.optimizers.SGD`."""
