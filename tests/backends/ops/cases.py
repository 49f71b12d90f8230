"""Case tables for the parity tests: each `case(...)` is one op call checked by the harness.

A case's arguments are NumPy arrays, Python values, and two markers resolved per backend:
`Fn(f)` becomes `f` with that backend's ops bound as its first argument (so a function passed to
a control-flow op runs on the backend it is passed to) and `Var(array)` becomes that backend's
`Variable`.
"""

import functools

import numpy as np
import pytest

from tests import accelerator
from tests.backends.ops import harness

#: Ops whose result inside a trace differs by design: `bincount` (jax backend) keeps only
#: `minlength` bins there. Their cases stay eager where the others compile whole.
TRACED_DIFFERENTLY = {"bincount"}


class Fn:
    """A function argument `f(ops, *args)`, passed with each backend's ops bound first."""

    def __init__(self, f, name="fn"):
        self.f, self.name = f, name


class Var:
    """A `Variable` argument holding `array`, created on each backend."""

    def __init__(self, array):
        self.array = array


class Case:
    """One call `op(*args, **kwargs)` compared between the reference and the active backend."""

    def __init__(self, op, args, kwargs):
        self.op, self.args, self.kwargs = op, args, kwargs
        self.atol = self.rtol = 1e-5
        self.post = None
        self.needs_64_bit = False

    def tol(self, atol, rtol=None):
        """Compare values within `atol` (and `rtol`, default the same) instead of 1e-5."""
        self.atol, self.rtol = atol, atol if rtol is None else rtol
        return self

    def wide(self):
        """Mark the case as comparing values only a 64-bit type holds: skipped on a backend
        that stores 64-bit dtypes narrowed (jax without JAX's 64-bit mode)."""
        self.needs_64_bit = True
        return self

    def then(self, post):
        """Compare `post(ops, result)` instead of the raw result (e.g. call a returned function)."""
        self.post = post
        return self

    def call_on(self, backend):
        """The case's call on `backend`: (the op, its args, its kwargs)."""
        args = harness.to_backend(_bind(self.args, backend), backend)
        return (
            getattr(backend, self.op),
            args,
            harness.to_backend(_bind(self.kwargs, backend), backend),
        )

    def compiles_whole(self, backend):
        """Whether `backend` runs the call as one program on an accelerator (`accelerator.call`:
        one compile, not one per eager op): the backend under test does; the reference does not."""
        return backend is harness.BACKEND and self.op not in TRACED_DIFFERENTLY

    def run_on(self, backend):
        """The case's result on `backend`, as NumPy values."""
        op, args, kwargs = self.call_on(backend)
        if self.compiles_whole(backend):
            result = accelerator.call(op, args, kwargs)
        else:
            result = op(*args, **kwargs)
        if self.post is not None:
            result = self.post(backend, result)
        return harness.to_numpy(result, backend)

    def run(self):
        """Run on the reference and the active backend and compare; return the reference result.
        Skipped when the active backend is the reference (the comparison could not fail)."""
        harness.skip_on_the_reference()
        if self.needs_64_bit and harness.stored_dtype("float64") != "float64":
            pytest.skip("a 64-bit value: this backend stores 64-bit dtypes in 32 bits")
        expected = self.run_on(harness.REFERENCE)
        actual = self.run_on(harness.BACKEND)
        harness.assert_same(actual, expected, self.atol, self.rtol, path=f"ops.{self.op}")
        return expected

    def describe(self):
        """A short id: the op and its arguments' dtypes and shapes."""
        parts = [_describe(a) for a in self.args]
        parts += [f"{k}={_describe(v)}" for k, v in self.kwargs.items()]
        return f"{self.op}({','.join(parts)})"


def f32(values):
    """`values` (a number or nested lists) as a float32 array."""
    return np.array(values, "float32")


def i32(values):
    """`values` (a number or nested lists) as an int32 array."""
    return np.array(values, "int32")


def case(op, *args, **kwargs):
    """A `Case` calling `op(*args, **kwargs)`."""
    return Case(op, args, kwargs)


def params(cases):
    """The cases as pytest parameters with readable ids."""
    return [pytest.param(c, id=c.describe()) for c in cases]


def ops_in(cases):
    """The names of the ops that `cases` call."""
    return {c.op for c in cases}


def _bind(value, backend):
    """`value` with every `Fn` and `Var` marker resolved for `backend`."""
    if isinstance(value, Fn):
        return functools.partial(value.f, backend)
    if isinstance(value, Var):
        return backend.Variable(value.array)
    if isinstance(value, (list, tuple)):
        return type(value)(_bind(v, backend) for v in value)
    if isinstance(value, dict):
        return {k: _bind(v, backend) for k, v in value.items()}
    return value


_SHORT = {
    "float32": "f32",
    "float64": "f64",
    "float16": "f16",
    "int32": "i32",
    "int64": "i64",
    "int8": "i8",
    "int16": "i16",
    "uint8": "u8",
    "uint16": "u16",
    "uint32": "u32",
    "bool": "b",
    "complex64": "c64",
    "complex128": "c128",
    "bfloat16": "bf16",
}


def _describe(value):
    if isinstance(value, np.ndarray):
        name = _SHORT.get(str(value.dtype), str(value.dtype))
        return f"{name}{list(value.shape)}".replace(" ", "")
    if isinstance(value, Fn):
        return value.name
    if isinstance(value, Var):
        return f"Var:{_describe(value.array)}"
    if isinstance(value, (list, tuple)):
        inner = ",".join(_describe(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    if callable(value):
        return getattr(value, "__name__", "fn")
    text = repr(value)
    return text if len(text) <= 20 else text[:17] + "..."
