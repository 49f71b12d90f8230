"""The Metric base: state variables, reset, names, dtype, __call__ and the stateless forms."""

import numpy as np
import pytest

from tests.backends.ops.harness import stored_dtype
from tests.training.metrics.helpers import assert_close
from tripod.backends import active
from tripod.backends.common.stateless import StatelessScope
from tripod.training import metrics

ops = active()


class CountAbove(metrics.Metric):
    """A user metric: how many values exceed a limit (tests the subclassing interface)."""

    def __init__(self, limit=0.0, name=None, dtype=None):
        super().__init__(dtype=dtype, name=name)
        self.limit = limit
        self.count = self.add_variable((), "zeros", name="count")
        self.seen = self.add_variable((2,), "ones", name="seen")

    def update_state(self, values, sample_weight=None):
        above = ops.cast(ops.greater(values, self.limit), self.dtype)
        self.count.assign_add(ops.sum(above))
        self.seen.assign_add(ops.ones((2,)))

    def result(self):
        return ops.convert_to_tensor(self.count)

    def get_config(self):
        return {**super().get_config(), "limit": self.limit}


def test_state_lives_in_non_trainable_variables_and_resets_to_its_initializer():
    m = CountAbove(0.5)
    assert [v.name for v in m.variables] == ["count", "seen"]
    assert all(not v.trainable for v in m.variables)
    assert all(v.aggregation == "sum" for v in m.variables)
    m.update_state(np.array([0.2, 0.7, 0.9]))
    m.update_state(np.array([0.6]))
    assert_close(m.result(), 3.0)
    assert_close(m.seen.numpy(), [3.0, 3.0])
    m.reset_state()
    assert_close(m.result(), 0.0)
    assert_close(m.seen.numpy(), [1.0, 1.0])


def test_call_updates_then_returns_the_result():
    m = metrics.Mean()
    assert_close(m([1.0, 3.0]), 2.0)
    assert_close(m([5.0]), 3.0)


def test_default_names_are_unique_snake_case_and_settable():
    a, b = CountAbove(), CountAbove()
    assert a.name.startswith("count_above") and b.name != a.name
    assert metrics.Mean().name == "mean"
    a.name = "accuracy"
    assert a.name == "accuracy" and a.get_config()["name"] == "accuracy"
    with pytest.raises(TypeError):
        a.name = 3
    assert repr(metrics.Mean(name="m")) == "<Mean name=m>"


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dtype_sets_the_state_and_result_dtype(dtype):
    m = metrics.Mean(dtype=dtype)
    m.update_state(np.array([1, 2, 4], dtype="int32"))
    assert m.dtype == dtype
    assert all(v.dtype == stored_dtype(dtype) for v in m.variables)
    assert ops.dtype(m.result()) == stored_dtype(dtype)
    assert_close(m.result(), 7 / 3)


def test_config_round_trip_of_a_user_metric():
    m = CountAbove(0.25, name="above", dtype="float64")
    clone = CountAbove.from_config(m.get_config())
    assert (clone.name, clone.dtype, clone.limit) == ("above", "float64", 0.25)


def test_stateless_forms_touch_no_variable():
    m = metrics.Mean()
    start = m.stateless_reset_state()
    assert_close(start, [0.0, 0.0])
    state = m.stateless_update_state(start, np.array([1.0, 2.0, 6.0]))
    state = m.stateless_update_state(state, np.array([3.0]), sample_weight=np.array([3.0]))
    assert_close(m.stateless_result(state), 18 / 6)
    assert_close(m.result(), 0.0)
    assert_close([v.numpy() for v in m.variables], [0.0, 0.0])
    with pytest.raises(ValueError, match="expected 2"):
        m.stateless_result(state[:1])


def test_update_state_inside_a_stateless_scope_records_assignments():
    m = metrics.Sum()
    values = [(v, v.value) for v in m.variables]
    with StatelessScope(state_mapping=values) as scope:
        m.update_state(np.array([1.0, 2.0]))
        m.update_state(np.array([4.0]))
        assert_close(m.result(), 7.0)
    assert_close(m.result(), 0.0)
    ((variable, value),) = scope.updates
    assert variable is m.total
    assert_close(value, 7.0)


def test_reset_state_inside_a_stateless_scope_gives_initial_values():
    m = metrics.Sum()
    m.update_state([5.0])
    with StatelessScope() as scope:
        m.reset_state()
    assert_close(scope.updates[0][1], 0.0)
    assert_close(m.result(), 5.0)


def test_the_base_requires_update_state_and_result():
    m = metrics.Metric(name="bare")
    with pytest.raises(NotImplementedError):
        m.update_state(1.0)
    with pytest.raises(NotImplementedError):
        m.result()
