"""`SymbolicScope`: marks code that runs on stand-in tensors to infer output shapes and dtypes.

tripod computes a symbolic call's output specs by running the function on stand-in tensors
(`spec.output_spec_by_running`, under a `StatelessScope`); that run opens a `SymbolicScope`, so
code that must act differently while only shapes are wanted (skip a side effect, return a cheap
placeholder) can ask `in_symbolic_scope()`, as in Keras 3.
"""

import threading


class _Stack(threading.local):
    """Each thread's open scopes, innermost last (Keras keeps the scope per thread too)."""

    def __init__(self):
        self.scopes = []


_local = _Stack()


class SymbolicScope:
    """Context manager marking the symbolic stage: inside it, `in_symbolic_scope()` is True.

    tripod opens one whenever it infers output specs; open one yourself to run code as it runs
    then. Scopes nest; leaving the inner one restores the outer.

    Examples:
        >>> from tripod.backends.common.symbolic_scope import in_symbolic_scope
        >>> with tripod.SymbolicScope():
        ...     in_symbolic_scope()
        True
        >>> in_symbolic_scope()
        False
    """

    def __enter__(self):
        _local.scopes.append(self)
        return self

    def __exit__(self, *exc_info):
        _local.scopes.pop()


def get_symbolic_scope():
    """The innermost open `SymbolicScope` of this thread, or None."""
    return _local.scopes[-1] if _local.scopes else None


def in_symbolic_scope():
    """Whether code runs inside a `SymbolicScope` (output specs are being inferred)."""
    return bool(_local.scopes)
