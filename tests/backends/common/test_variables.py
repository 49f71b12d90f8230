"""The shared `Variable` interface on the active backend: a variable owns its value."""

import warnings

import numpy as np

from tripod.backends import active

ops = active()


def test_a_variable_keeps_its_own_copy_of_what_it_was_given():
    start, later = np.zeros(4, "float32"), np.ones(4, "float32")
    variable = ops.Variable(start)
    start[0] = 5.0
    np.testing.assert_array_equal(variable.numpy(), np.zeros(4))
    variable.assign(later)
    later[0] = 7.0
    np.testing.assert_array_equal(variable.numpy(), np.ones(4))


def test_assign_add_and_sub_update_the_value():
    variable = ops.Variable(np.arange(3, dtype="float32"))
    variable.assign_add(np.ones(3, "float32"))
    variable.assign_sub(np.full(3, 0.5, "float32"))
    np.testing.assert_array_equal(variable.numpy(), np.arange(3) + 0.5)


def test_a_value_that_needs_a_cast_is_not_kept_either():
    variable = ops.Variable(np.zeros(3, "float32"))
    source = np.ones(3, "float64")
    variable.assign(source)
    source[0] = 9.0
    np.testing.assert_array_equal(variable.numpy(), np.ones(3))


def test_assigning_a_read_only_or_strided_array():
    """A host array that is read-only (a broadcast) or reversed is taken like any other."""
    variable = ops.Variable(np.zeros((2, 3), "float32"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        variable.assign(np.broadcast_to(np.arange(3, dtype="float32"), (2, 3)))
    np.testing.assert_array_equal(ops.convert_to_numpy(variable.value), [[0, 1, 2], [0, 1, 2]])
    variable.assign(np.arange(6, dtype="float32").reshape(2, 3)[::-1])
    np.testing.assert_array_equal(ops.convert_to_numpy(variable.value), [[3, 4, 5], [0, 1, 2]])
