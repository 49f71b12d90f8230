"""Eager `cond` and `switch` run the chosen branch alone, on every backend: a branch not taken is
never traced (on jax, `lax.cond` would compile both branches again on every call)."""

import numpy as np
import pytest

from tripod import ops


def _never():
    raise AssertionError("the branch not taken ran")


@pytest.mark.parametrize("pred, expected", [(True, 1.0), (False, 2.0)])
def test_cond_runs_only_the_chosen_branch(pred, expected):
    value = ops.convert_to_tensor(np.float32(expected))
    out = ops.cond(
        ops.convert_to_tensor(pred), *((lambda: value, _never) if pred else (_never, lambda: value))
    )
    assert float(ops.convert_to_numpy(out)) == expected


@pytest.mark.parametrize("index, chosen", [(-3, 0), (1, 1), (7, 2)])
def test_switch_runs_only_the_chosen_branch_clamping_the_index(index, chosen):
    def branch(i):
        return lambda x: x + i if i == chosen else _never()

    out = ops.switch(
        ops.convert_to_tensor(np.int32(index)), [branch(i) for i in range(3)], np.float32(10)
    )
    assert float(ops.convert_to_numpy(out)) == 10 + chosen
