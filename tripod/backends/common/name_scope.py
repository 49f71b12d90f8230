"""`name_scope`: prefixes for the paths of the variables created inside it (`outer/dense/kernel`)."""

import threading


class _Stack(threading.local):
    """Each thread's open scopes, innermost last."""

    def __init__(self):
        self.scopes = []


_stack = _Stack()


class name_scope:  # lowercase: Keras's name, used like a function in `with`
    """A context manager whose `name` prefixes the path of every variable created inside it.

    Keyword arguments, as in Keras: `caller` (the object opening it), `deduplicate` (default
    True: a scope re-entered by the same caller with the same name adds no second level) and
    `override_parent` (an absolute path replacing the enclosing scopes).
    """

    def __init__(self, name, **kwargs):
        if not isinstance(name, str) or not name or "/" in name:
            raise ValueError(
                f"name_scope: name must be a non-empty string without '/', received {name!r}."
            )
        unknown = set(kwargs) - {"caller", "deduplicate", "override_parent"}
        if unknown:
            raise TypeError(f"name_scope: unexpected arguments {sorted(unknown)}.")
        self.name = name
        self.caller = kwargs.get("caller")
        self.deduplicate = kwargs.get("deduplicate", True)
        self.override_parent = kwargs.get("override_parent")
        self._pushed = False

    def __enter__(self):
        scopes = _stack.scopes
        top = scopes[-1] if scopes else None
        repeated = (
            self.deduplicate
            and top is not None
            and self.caller is not None
            and top.caller is self.caller
            and top.name == self.name
        )
        if not repeated:
            scopes.append(self)
            self._pushed = True
        return self

    def __exit__(self, *exc):
        if self._pushed:
            _stack.scopes.pop()
            self._pushed = False
        return False


def current_path():
    """The path of the open scopes, `"outer/inner"` ("" outside any scope)."""
    parts = []
    for scope in _stack.scopes:
        if scope.override_parent is not None:
            parts = [p for p in scope.override_parent.split("/") if p]
        parts.append(scope.name)
    return "/".join(parts)


def scoped_path(path):
    """`path` under the open scopes: `"outer/" + path` inside `name_scope("outer")`."""
    prefix = current_path()
    return f"{prefix}/{path}" if prefix else path
