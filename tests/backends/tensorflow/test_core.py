"""The tensorflow backend's Variable: assignments from host arrays, eagerly and in a trace."""

import numpy as np
import pytest

from tripod.backends import active, config
from tripod.backends.common.stateless import StatelessScope

pytestmark = pytest.mark.skipif(config.backend() != "tensorflow", reason="tensorflow's Variable")

ops = active()


def test_a_host_array_is_copied_in_never_kept():
    v = ops.Variable(np.zeros((2, 3), "float32"))
    source = np.arange(6, dtype="float32").reshape(2, 3)
    v.assign(source)
    source[0, 0] = 100.0
    np.testing.assert_array_equal(v.numpy(), np.arange(6).reshape(2, 3))
    v.assign_add(np.ones((2, 3), "float32"))
    assert source[0, 1] == 1.0
    np.testing.assert_array_equal(v.numpy(), np.arange(6).reshape(2, 3) + 1)


def test_other_values_are_converted_and_checked():
    v = ops.Variable(np.zeros((3,), "float32"))
    v.assign(np.array([0.5, 1.5, 2.5]))  # float64: cast to the variable's dtype
    assert v.numpy().dtype == np.float32
    np.testing.assert_array_equal(v.numpy(), [0.5, 1.5, 2.5])
    v.assign([1, 2, 3])
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="shape"):
        v.assign(np.zeros((4,), "float32"))


def test_a_stateless_scope_records_a_host_array_instead():
    v = ops.Variable(np.zeros((2,), "float32"))
    with StatelessScope() as scope:
        v.assign(np.ones((2,), "float32"))
        np.testing.assert_array_equal(np.asarray(scope.get_current_value(v)), [1.0, 1.0])
    np.testing.assert_array_equal(v.numpy(), [0.0, 0.0])


def test_host_arrays_assign_inside_a_traced_function():
    tf = pytest.importorskip("tensorflow")
    v = ops.Variable(np.zeros((2,), "float32"))

    @tf.function(autograph=False)
    def reset_then_add(x):
        v.assign(np.full((2,), 5.0, "float32"))
        v.assign_add(x)
        return v.value

    np.testing.assert_array_equal(reset_then_add(tf.ones(2)).numpy(), [6.0, 6.0])
    np.testing.assert_array_equal(reset_then_add(tf.ones(2)).numpy(), [6.0, 6.0])
