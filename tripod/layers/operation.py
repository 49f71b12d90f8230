"""Ops on symbolic tensors: `tripod.ops.add(x, y)` (or `x + y`) inside a functional model.

A public op called on a `KerasTensor` becomes an `Operation` layer, which records a node in the
graph like any layer call and replays the op on real tensors when the model runs.
"""

import functools
import inspect

from tripod.backends import active
from tripod.backends.common.keras_tensor import KerasTensor, any_symbolic
from tripod.layers import naming
from tripod.layers.layer import Layer

ops = active()


#: functions besides the backend's ops that an `Operation` replays, by name (`recorded`)
_FUNCTIONS = {}


class Operation(Layer):
    """A layer that applies the op `op_name` of `tripod.ops` (or a function `recorded` under
    that name, such as an activation) to its arguments."""

    def __init__(self, op_name, name=None, **kwargs):
        fn = _FUNCTIONS.get(op_name) or getattr(ops, op_name, None)
        if fn is None:
            raise ValueError(f"Operation: unknown op {op_name!r}.")
        super().__init__(name=name or naming.unique_name(op_name), autocast=False, **kwargs)
        self.op_name = op_name
        self._fn = fn
        self.built = True

    def call(self, *args, **kwargs):
        if self.op_name == "get_item" and isinstance(args[1], list):
            # A saved graph's JSON turns the tuple of `x[:, -1]` into a list: read back as the
            # index it was (Keras's GetItem reads a list key so too)
            args = (args[0], tuple(args[1]), *args[2:])
        return self._fn(*args, **kwargs)

    def get_config(self):
        return {"name": self.name, "op_name": self.op_name}


#: ops answered from a symbolic tensor's static facts, as Keras answers them: a shape tuple
#: (None for an unknown dim) and a dtype name, not a recorded node
_STATIC_FACTS = {"shape": lambda x: tuple(x.shape), "dtype": lambda x: x.dtype}


def symbolic_aware(fn, spec, module):
    """The public op that contract stub `spec` describes, computed by backend op `fn`.

    Given KerasTensors it records an `Operation` node instead of computing. It carries `spec`'s
    name, docstring and signature and `module` (its public namespace, e.g. `"tripod.ops"`), so
    `help()` and `inspect.signature` show the contract rather than what the backend function says.
    """
    name = spec.__name__

    static = _STATIC_FACTS.get(name)

    def op(*args, **kwargs):
        if static is not None and len(args) == 1 and isinstance(args[0], KerasTensor):
            return static(args[0])
        if any_symbolic(args, kwargs):
            return Operation(name)(*args, **kwargs)
        return fn(*args, **kwargs)

    op.__wrapped__ = fn  # `inspect.unwrap(tripod.ops.add)` reaches the backend's function
    return described(op, spec, module)


def recorded(fn, op_name):
    """`fn`, a function of a tensor and options, which on a KerasTensor records an `Operation`
    node that replays it by `op_name` (so a saved graph rebuilds it), as Keras's activations
    record their ops on symbolic inputs."""
    _FUNCTIONS[op_name] = fn

    @functools.wraps(fn)
    def call(x, *args, **kwargs):
        if isinstance(x, KerasTensor):
            return Operation(op_name)(x, *args, **kwargs)
        return fn(x, *args, **kwargs)

    return call


def described(op, spec, module):
    """`op` given contract stub `spec`'s name, docstring and signature, and `module` as its home.

    Set once when a namespace is assembled; `inspect.signature` reads `__signature__` before it
    follows `__wrapped__`, so the backend function behind `op` never shows through.
    """
    op.__name__ = op.__qualname__ = spec.__name__
    op.__doc__ = spec.__doc__
    op.__module__ = module
    op.__signature__ = inspect.signature(spec)
    return op


def _operator(op_name, reflected=False):
    def method(self, other):
        args = (other, self) if reflected else (self, other)
        return Operation(op_name)(*args)

    return method


_OPERATORS = {
    "add": "add",
    "sub": "subtract",
    "mul": "multiply",
    "truediv": "divide",
    "floordiv": "floor_divide",
    "mod": "mod",
    "pow": "power",
    "matmul": "matmul",
    "and": "logical_and",
    "or": "logical_or",
    "xor": "logical_xor",
}
for _dunder, _op in _OPERATORS.items():
    setattr(KerasTensor, f"__{_dunder}__", _operator(_op))
    setattr(KerasTensor, f"__r{_dunder}__", _operator(_op, reflected=True))
for _dunder, _op in {
    "lt": "less",
    "le": "less_equal",
    "gt": "greater",
    "ge": "greater_equal",
}.items():
    setattr(KerasTensor, f"__{_dunder}__", _operator(_op))
KerasTensor.__neg__ = lambda self: Operation("negative")(self)
KerasTensor.__abs__ = lambda self: Operation("abs")(self)
KerasTensor.__getitem__ = lambda self, key: Operation("get_item")(self, key)
