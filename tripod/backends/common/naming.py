"""Names for ops that a factory makes, so tracebacks and profiles name the op, not the factory."""


def named(fn, name):
    """`fn` (a function a factory just defined) given op `name` as its `__name__` and
    `__qualname__`; returns `fn`."""
    fn.__name__ = fn.__qualname__ = name
    return fn
