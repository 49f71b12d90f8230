"""The `Variable` interface shared by every backend.

A backend subclasses `Variable` and implements the three native hooks (`_to_native`, `_read`,
`_write`); everything else — validation, the stateless scope, assignment helpers, arithmetic —
lives here once.
"""

import itertools
import threading

import numpy as np

import tripod.backends
from tripod.backends import dtypes
from tripod.backends.common import name_scope, stateless

_unnamed = itertools.count()


def auto_name():
    """The name of a variable made without one, as Keras 3 names them: "variable", then
    "variable_1", "variable_2", ... until `reset_auto_names` (`clear_session`)."""
    n = next(_unnamed)
    return "variable" if n == 0 else f"variable_{n}"


def reset_auto_names():
    """Start the names of unnamed variables from "variable" again."""
    global _unnamed
    _unnamed = itertools.count()


class _Autocast(threading.local):
    """Each thread's active `AutocastScope`; a class default, so reading it when none is set
    costs no failed attribute lookup (every variable read checks it)."""

    scope = None


_autocast = _Autocast()


class AutocastScope:
    """While active, float variables read as `dtype` (mixed precision: float32 variables,
    low-precision compute). `cast(value, dtype)` is the backend's cast."""

    def __init__(self, dtype, cast):
        self.dtype, self.cast = dtype, cast

    def __enter__(self):
        self._outer = _autocast.scope
        _autocast.scope = self
        return self

    def __exit__(self, *exc):
        _autocast.scope = self._outer
        return False


class Variable:
    """A named, mutable tensor held in the backend's native form."""

    #: The initializer of a variable whose initialization a stateless scope deferred, until it
    #: runs (`_initialize`); None once the variable holds a value.
    _initializer = None
    #: the name of the backend whose subclass this is, for the ops its operators fall back on
    _backend_name = None

    def __init__(
        self,
        initializer,
        shape=None,
        dtype=None,
        trainable=True,
        autocast=True,
        aggregation="none",
        synchronization="auto",
        name=None,
        **kwargs,
    ):
        name = name or auto_name()
        if not isinstance(name, str) or "/" in name:
            raise ValueError(f"Variable: the name must be a string without '/', received {name!r}.")
        self._name = name
        self._path = name_scope.scoped_path(kwargs.pop("path", name))
        if kwargs:
            raise TypeError(f"Variable: unexpected arguments {sorted(kwargs)}.")
        self._trainable = bool(trainable)
        #: created trainable: freezing and thawing its layer sets `trainable` (Keras's rule)
        self._follows_layer = self._trainable
        self.autocast = autocast
        self.aggregation = aggregation
        self.synchronization = synchronization
        self._dtype = self._stored_dtype(dtypes.standardize_dtype(dtype))
        self._host_dtype = dtypes.to_numpy(self._dtype)
        if callable(initializer):
            if shape is None:
                raise ValueError(f"Variable {name!r}: a callable initializer needs a shape.")
            if stateless.defers_initialization():
                self._shape, self._initializer = tuple(shape), initializer
                stateless.defer(self)
                return
            value = initializer(tuple(shape), dtype=self._dtype)
        else:
            value = initializer
        native = self._initial_native(value)
        actual = tuple(native.shape)
        if shape is not None and tuple(shape) != actual:
            raise ValueError(
                f"Variable {name!r}: the initial value has shape {actual}, expected {tuple(shape)}."
            )
        self._shape = actual
        self._store(native)

    def _initialize(self):
        """Run the initializer a stateless scope deferred and store the initial value."""
        initializer, self._initializer = self._initializer, None
        stateless.forget(self)
        self._store(self._initial_native(initializer(self._shape, dtype=self._dtype)))

    def __getattr__(self, name):
        # Reached only for an attribute the variable lacks, such as a backend's storage before
        # a deferred initialization ran: the first use of the storage initializes it.
        if self._initializer is None or name.startswith("__"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self._initialize()
        return getattr(self, name)

    # -- native hooks, implemented by each backend ---------------------------------------------
    @staticmethod
    def _stored_dtype(name):
        """The dtype this backend holds a variable declared as `name` in (the same name unless
        the framework narrows it)."""
        return name

    def _to_native(self, value):
        """`value` as this backend's tensor of `self.dtype`."""
        raise NotImplementedError

    def _initial_native(self, value):
        """The first value as a native tensor; a backend may need to step out of a trace."""
        return self._to_native(value)

    def _store(self, native):
        """Create the native storage holding `native` (called once, from `__init__`)."""
        raise NotImplementedError

    def _read(self):
        """The native value held now."""
        raise NotImplementedError

    def _write(self, native):
        """Overwrite the held value with `native` (same shape and dtype)."""
        raise NotImplementedError

    # -- the interface -------------------------------------------------------------------------
    @property
    def value(self):
        """The current value: the stateless scope's substitute if one is active, else the held one."""
        scope = stateless.current_scope()
        value = None if scope is None else scope.get_current_value(self)
        if value is None:
            value = self._read()
        autocast = _autocast.scope
        if (
            autocast is not None
            and self.autocast
            and self._dtype != autocast.dtype
            and self._dtype in dtypes.FLOATS
        ):
            return autocast.cast(value, autocast.dtype)
        return value

    def assign(self, value):
        """Set the value (recorded in the stateless scope instead, when one is active)."""
        native = self._to_native(value)
        if tuple(native.shape) != self._shape:
            raise ValueError(
                f"Variable {self._path!r}: cannot assign a value of shape {tuple(native.shape)} "
                f"to a variable of shape {self._shape}."
            )
        scope = stateless.current_scope()
        if scope is not None:
            scope.add_update(self, native)
        else:
            if self._initializer is not None:  # storage to write into first
                self._initialize()
            self._write(native)
        return native

    def assign_add(self, value):
        """Add `value` to the variable (in place where the backend can)."""
        return self._combine("add", value)

    def assign_sub(self, value):
        """Subtract `value` from the variable (in place where the backend can)."""
        return self._combine("sub", value)

    def _combine(self, kind, value):
        """`assign_add`/`assign_sub`: in place when no stateless scope records the update."""
        if stateless.current_scope() is None:
            updated = self._update_in_place(kind, value)
            if updated is not None:
                return updated
        native = self._to_native(value)
        held = self.value
        return self.assign(held + native if kind == "add" else held - native)

    def _update_in_place(self, kind, value):
        """Backend hook: add ("add") or subtract ("sub") `value` in place and return the new
        value (one kernel, no read-modify-write); None where the backend cannot."""

    def _exact_host_array(self, value):
        """Whether `value` is a NumPy array of this variable's shape and dtype, assigned outside
        any stateless scope: a backend may take it (a metric reset) without converting it first."""
        return (
            type(value) is np.ndarray
            and value.dtype == self._host_dtype
            and value.shape == self._shape
            and stateless.current_scope() is None
        )

    def numpy(self):
        """The current value as a NumPy array."""
        return np.asarray(self.value)

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.numpy(), dtype=dtype)

    @property
    def shape(self):
        """The variable's shape, a tuple of ints."""
        return self._shape

    @property
    def ndim(self):
        """The number of dimensions."""
        return len(self._shape)

    @property
    def dtype(self):
        """The variable's dtype name, e.g. `"float32"`."""
        return self._dtype

    @property
    def name(self):
        """The variable's own name."""
        return self._name

    @property
    def path(self):
        """The variable's full path, e.g. `"dense/kernel"`."""
        return self._path

    @property
    def trainable(self):
        """Whether optimizers update this variable."""
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)

    def __repr__(self):
        return f"<Variable path={self._path}, shape={self._shape}, dtype={self._dtype}>"

    __hash__ = object.__hash__

    # Arithmetic and comparisons act on the current value.
    def __getitem__(self, key):
        return self.value[key]

    def __len__(self):
        return self._shape[0]

    def __bool__(self):
        return bool(self.numpy())

    def __float__(self):
        return float(self.numpy())

    def __int__(self):
        return int(self.numpy())


def _forward(op_name):
    """A Variable method applying operator `op_name` to the variable's current value."""

    def method(self, *other):
        return getattr(self.value, op_name)(*other)

    method.__name__ = op_name
    return method


for _op in (
    "add",
    "radd",
    "sub",
    "rsub",
    "mul",
    "rmul",
    "truediv",
    "rtruediv",
    "floordiv",
    "rfloordiv",
    "mod",
    "rmod",
    "pow",
    "rpow",
    "matmul",
    "rmatmul",
    "neg",
    "pos",
    "abs",
    "invert",
    "and",
    "rand",
    "or",
    "ror",
    "xor",
    "rxor",
):
    setattr(Variable, f"__{_op}__", _forward(f"__{_op}__"))


def _outside_dtype(name, variable, other):
    """Whether comparison `name` of `variable` with Python int `other` finds `other` outside the
    variable's integer dtype (a weak int compares in the variable's own dtype)."""
    return dtypes.outlying_comparison(name, variable, other, lambda v, _: v.dtype) is not None


def _compare(op_name, name):
    """A Variable comparison operator `op_name`: the framework's, on the current value, except
    for a Python int outside the variable's integer dtype, which the framework would wrap around.
    That rare case goes to the backend's comparison op `name`, which compares it by value as
    NumPy 2 does (and as `tripod.ops.less` etc. do); every other operand costs one type check."""
    forward = _forward(op_name)

    def method(self, other):
        if type(other) is int and _outside_dtype(name, self, other):
            return getattr(tripod.backends.load(self._backend_name), name)(self.value, other)
        return forward(self, other)

    method.__name__ = op_name
    return method


for _op, _name in (
    ("lt", "less"),
    ("le", "less_equal"),
    ("gt", "greater"),
    ("ge", "greater_equal"),
    ("eq", "equal"),
    ("ne", "not_equal"),
):
    setattr(Variable, f"__{_op}__", _compare(f"__{_op}__", _name))
