"""The stateless scope: substitute values for variables while a function runs.

Inside a `StatelessScope`, reading a mapped variable gives its substitute and assigning to a
variable records the new value in the scope instead of mutating the variable. This is how a pure,
jitted step (JAX) runs over the same layers that other backends mutate in place.

As in Keras 3, each substitute is checked against its variable when the scope is made, and a
variable created while the outermost scope has `initialize_variables=False` stays uninitialized
(no initializer runs, no storage is made) until it is first needed, assigned, or a later
outermost scope with `initialize_variables=True` exits.
"""

import threading

import numpy as np

from tripod.backends import dtypes
from tripod.backends.common import variables


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


#: The variables created under a scope that deferred their initialization, by id: they get
#: their initial values when an outermost scope with `initialize_variables=True` exits (in any
#: thread, as Keras initializes them process-wide), or earlier, when first needed.
_uninitialized = {}


def defers_initialization():
    """Whether a variable created now waits for its initial value: the outermost active scope
    was made with `initialize_variables=False`."""
    scopes = _local.scopes
    return bool(scopes) and not scopes[0].initialize_variables


def defer(variable):
    """Record `variable` as created without its initial value (see `defers_initialization`)."""
    _uninitialized[id(variable)] = variable


def forget(variable):
    """`variable` has its value now: no scope's exit initializes it any more."""
    _uninitialized.pop(id(variable), None)


def initialize_variables():
    """Give every variable still waiting for its initial value that value."""
    for variable in list(_uninitialized.values()):
        variable._initialize()


def _substitute(variable, value):
    """`value` checked as the stand-in for `variable`, as Keras checks a `state_mapping` entry:
    the key must be a Variable; a Variable as value stands for its current value; the value must
    be tensor-like with the variable's shape in every known dimension, and is cast to the
    variable's dtype (as Keras casts it). A ValueError names the variable, expected and received."""
    if not isinstance(variable, variables.Variable):
        # ValueError, not TypeError: Keras raises ValueError here, and ported code catches it
        raise ValueError(  # noqa: TRY004
            "StatelessScope: every key of `state_mapping` must be a tripod Variable. "
            f"Received: {variable!r} of type {type(variable).__name__}"
        )
    if isinstance(value, variables.Variable):
        value = value.value
    elif isinstance(value, (np.ndarray, np.generic, int, float, bool, list, tuple)):
        value = variable._to_native(value)  # the backend's tensor, of the variable's dtype
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is None or dtype is None:
        raise ValueError(
            f"StatelessScope: the value for variable {variable.path!r} must be a tensor of "
            f"shape {variable.shape} and dtype {variable.dtype}. Received: {value!r}"
        )
    shape = tuple(shape)
    if len(shape) != len(variable.shape) or any(
        size is not None and size != expected for size, expected in zip(shape, variable.shape)
    ):
        raise ValueError(
            f"StatelessScope: the value for variable {variable.path!r} has shape {shape}; "
            f"expected the variable's shape {variable.shape}."
        )
    if dtypes.standardize_dtype(dtype) != variable.dtype:
        value = variable._to_native(value)
    return value


class StatelessScope:
    """Map variables to substitute values; collect assignments instead of applying them.

    Args:
        state_mapping: (variable, value) pairs: inside the scope each variable reads as its
            value. A value is a tensor of the variable's shape and dtype (cast to the
            variable's dtype), or a Variable standing for its value.
        collect_losses: whether losses added inside (`add_loss`) are kept in `losses`.
        initialize_variables: whether the variables created inside get their initial values
            when the outermost scope exits (True); with False they wait until first needed
            or assigned, or until a later outermost scope with True exits.

    Raises:
        ValueError: a key is not a Variable, a value is not tensor-like, or its shape differs
            from its variable's.
    """

    def __init__(self, state_mapping=None, collect_losses=False, initialize_variables=True):
        self.parent = None
        self.collect_losses = collect_losses
        self.initialize_variables = initialize_variables
        self.losses = []
        self._values = {}
        self._updates = {}
        for variable, value in state_mapping or ():
            self._values[id(variable)] = (variable, _substitute(variable, value))

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
        if self.parent is None and self.initialize_variables and _uninitialized:
            initialize_variables()
        return False
