"""What the tests allow where the jax backend computes on an accelerator (a TPU, a GPU), as
`scripts/test_accelerator.sh` runs them; on a CPU every value here leaves the tests as they are.

A TPU's float32 transcendentals, square roots and divisions are within about 2e-4 of the exact
rounding, not 1e-5 (docs/accelerators.md), and one program at a time can hold the chip.
"""

import concurrent.futures
import os

import numpy as np

from tripod.backends import config

ON_ACCELERATOR = False
if config.backend() == "jax":
    import jax

    ON_ACCELERATOR = jax.default_backend() != "cpu"

#: Whether `call` compiles each op call whole: on an accelerator, unless TRIPOD_ACCELERATOR_EAGER=1.
COMPILE_CALLS = ON_ACCELERATOR and os.environ.get("TRIPOD_ACCELERATOR_EAGER") != "1"
#: The argument leaves a compiled call closes over as constants; any other leaf (a function, a
#: variable, a seed generator) keeps the call eager, as it may hold or change state.
_CONSTANTS = (int, float, complex, bool, str, bytes, type(None), slice, type(Ellipsis), np.generic)

#: The floor of float tolerances on an accelerator; 0 on a CPU, where the tests' own hold.
TOLERANCE = 2e-4 if ON_ACCELERATOR else 0.0


def floor(tolerance):
    """`tolerance`, raised to the accelerator's floor where the tests run on one."""
    return max(tolerance, TOLERANCE)


def child_environment(**variables):
    """The environment for a test's subprocess: this one's plus `variables`, with JAX kept on the
    CPU when this process holds an accelerator (a second program cannot open the chip)."""
    return {**os.environ, **variables, **({"JAX_PLATFORMS": "cpu"} if ON_ACCELERATOR else {})}


def call(fn, args, kwargs):
    """`fn(*args, **kwargs)`; on an accelerator, one compiled program of the whole call.

    Every eager op compiles a program of its own there (about 80 ms each on a TPU), so a composite
    op costs dozens of compiles; `jax.jit` of the call costs one and runs the same kernels. Calls
    with stateful arguments, or that cannot be traced (a shape read from a value, a result that is
    no array), run eagerly as on the CPU.
    """
    program = _program(fn, args, kwargs)
    executable = program and program.executable()
    return fn(*args, **kwargs) if executable is None else executable(*program.arrays)


def precompile(calls):
    """Compile the programs that `call` will run for `calls` ((fn, args, kwargs) triples), on
    threads: XLA compiles with the GIL released, so the host's cores share the compiles that the
    tests would otherwise make one at a time."""
    if COMPILE_CALLS:
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
            list(pool.map(_compile, calls))


def _compile(triple):
    program = _program(*triple)
    if program is not None:
        program.executable()


#: Compiled programs by `_Program.key`; None for a call that cannot be traced.
_EXECUTABLES = {}


class _ARRAY:
    """The place of an array leaf in a `_Program`'s template."""


def _is_leaf(value):
    """Only lists, tuples and dicts are taken apart: a variable (a pytree of its value on jax)
    stays whole, so that its call runs eagerly and keeps its state."""
    return not isinstance(value, (list, tuple, dict))


class _Program:
    """One call as a program of its array leaves, the other leaves fixed. Executables are kept by
    function, argument structure, constants and array types, so that alike calls share them."""

    def __init__(self, fn, leaves, tree):
        self.fn, self.tree = fn, tree
        self.template = [_ARRAY if isinstance(leaf, jax.Array) else leaf for leaf in leaves]
        self.arrays = [leaf for leaf in leaves if isinstance(leaf, jax.Array)]
        types = [(a.shape, a.dtype, a.weak_type) for a in self.arrays]
        self.key = (fn, tree, repr([(type(leaf), leaf) for leaf in self.template]), repr(types))

    def run(self, *values):
        """`fn` on the arrays `values` in place of the call's."""
        values = iter(values)
        filled = [next(values) if leaf is _ARRAY else leaf for leaf in self.template]
        args, kwargs = jax.tree_util.tree_unflatten(self.tree, filled)
        return self.fn(*args, **kwargs)

    def executable(self):
        """The compiled program (compiled on first use), or None where the call cannot be traced."""
        if self.key not in _EXECUTABLES:
            try:
                _EXECUTABLES[self.key] = jax.jit(self.run).lower(*self.arrays).compile()
            except Exception:  # noqa: BLE001 -- not traceable: `call` runs it eagerly
                _EXECUTABLES[self.key] = None
        return _EXECUTABLES[self.key]


def _program(fn, args, kwargs):
    """The `_Program` of a call, or None where it runs eagerly (on a CPU; stateful arguments)."""
    if not COMPILE_CALLS:
        return None
    leaves, tree = jax.tree_util.tree_flatten((args, kwargs), is_leaf=_is_leaf)
    if not all(isinstance(leaf, (jax.Array, *_CONSTANTS)) for leaf in leaves):
        return None
    return _Program(fn, leaves, tree)
