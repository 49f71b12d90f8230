"""The stateless scope: substitute values for variables while a function runs.

Inside a `StatelessScope`, reading a mapped variable gives its substitute and assigning to a
variable records the new value in the scope instead of mutating the variable. This is how a pure,
jitted step (JAX) runs over the same layers that other backends mutate in place.
"""

import threading


class _Stack(threading.local):
    """Each thread's active scopes, innermost last. An attribute set in `__init__` (run once per
    thread) reads without the failed lookup that `getattr(local, name, None)` pays: every
    variable read asks for the current scope."""

    def __init__(self):
        self.scopes = []


_local = _Stack()


def _stack():
    return _local.scopes


def current_scope():
    """The innermost active `StatelessScope`, or None."""
    scopes = _local.scopes
    return scopes[-1] if scopes else None


class StatelessScope:
    """Map variables to substitute values; collect assignments instead of applying them."""

    def __init__(self, state_mapping=None, collect_losses=False, initialize_variables=True):
        self.parent = None
        self.collect_losses = collect_losses
        self.initialize_variables = initialize_variables
        self.losses = []
        self._values = {}
        self._updates = {}
        for variable, value in state_mapping or ():
            self._values[id(variable)] = (variable, value)

    def get_current_value(self, variable):
        """The value `variable` reads as here: its latest update, else its mapping, else what
        the enclosing scope says (None when no scope maps it)."""
        key = id(variable)
        entry = self._updates.get(key) or self._values.get(key)
        if entry is not None:
            return entry[1]
        return self.parent.get_current_value(variable) if self.parent is not None else None

    @property
    def loss_sink(self):
        """The innermost enclosing scope that collects losses, or None."""
        if self.collect_losses:
            return self
        return self.parent.loss_sink if self.parent is not None else None

    def add_update(self, variable, value):
        """Record `variable = value` without touching the variable."""
        self._updates[id(variable)] = (variable, value)

    @property
    def updates(self):
        """The recorded assignments, as a list of (variable, new value) pairs."""
        return list(self._updates.values())

    def __enter__(self):
        self.parent = current_scope()
        _stack().append(self)
        return self

    def __exit__(self, *exc):
        _stack().pop()
        return False
