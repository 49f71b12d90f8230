"""`tests/accelerator.py`'s compiled calls, forced on the CPU: the same results as eager calls, one
compile per call (none after `precompile`), and eager calls where a program cannot serve."""

import numpy as np
import pytest

from tests import accelerator
from tripod.backends import config, load

pytestmark = pytest.mark.skipif(
    config.backend() != "jax", reason="compiled calls are the jax backend's, on an accelerator"
)


@pytest.fixture
def compiled(monkeypatch):
    """`accelerator.call` compiling as on an accelerator, with a fresh store of executables."""
    monkeypatch.setattr(accelerator, "COMPILE_CALLS", True)
    monkeypatch.setattr(accelerator, "_EXECUTABLES", {})
    return accelerator._EXECUTABLES


def _compiles_during(fn):
    """How many programs XLA compiles while `fn` runs, and its result."""
    import jax

    counted = []

    def listener(event, duration, **kwargs):
        if event == "/jax/core/compile/backend_compile_duration":
            counted.append(duration)

    jax.monitoring.register_event_duration_secs_listener(listener)
    try:
        result = fn()
    finally:
        jax.monitoring.unregister_event_duration_listener(listener)
    return len(counted), result


def test_a_composite_op_is_one_program_and_matches_the_eager_call(compiled):
    ops = load("jax")
    x = ops.convert_to_tensor(np.linspace(-2.0, 2.0, 24, dtype="float32").reshape(2, 3, 4))
    eager = ops.convert_to_numpy(ops.logsumexp(ops.sin(x) * 3.0, axis=1))
    count, result = _compiles_during(
        lambda: accelerator.call(lambda t, axis: ops.logsumexp(ops.sin(t) * 3.0, axis), (x, 1), {})
    )
    assert count == 1 and len(compiled) == 1
    np.testing.assert_allclose(ops.convert_to_numpy(result), eager, rtol=1e-6)


def test_precompile_leaves_nothing_to_compile_and_alike_calls_share_it(compiled):
    ops = load("jax")
    ones = [ops.convert_to_tensor(np.ones((5, n), "float32")) for n in (2, 3, 2)]
    calls = [(ops.cumsum, (x,), {"axis": 1}) for x in ones]
    accelerator.precompile(calls)
    assert len(compiled) == 2  # the two (5, 2) calls share their program
    count, results = _compiles_during(lambda: [accelerator.call(*c) for c in calls])
    assert count == 0
    np.testing.assert_array_equal(ops.convert_to_numpy(results[1]), np.cumsum(np.ones((5, 3)), 1))


def test_untraceable_and_stateful_calls_run_eagerly(compiled):
    ops = load("jax")
    x = ops.convert_to_tensor(np.array([0.0, 2.0, 0.0, 5.0], "float32"))
    (indices,) = accelerator.call(ops.nonzero, (x,), {})  # a shape read from the values
    np.testing.assert_array_equal(ops.convert_to_numpy(indices), [1, 3])
    assert list(compiled.values()) == [None]  # remembered as eager
    variable = ops.Variable(np.arange(3, dtype="float32"))
    total = accelerator.call(ops.add, (variable, ops.convert_to_tensor(np.ones(3, "float32"))), {})
    np.testing.assert_array_equal(ops.convert_to_numpy(total), [1.0, 2.0, 3.0])
    assert len(compiled) == 1  # a variable argument keeps the call eager: no program of its own
