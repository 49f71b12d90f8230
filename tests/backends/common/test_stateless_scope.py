"""`StatelessScope(state_mapping, collect_losses, initialize_variables)` as Keras 3 defines it:
each mapping entry is checked against its variable, and `initialize_variables=False` leaves the
variables created inside without their initial values until they are needed."""

import numpy as np
import pytest

import tripod
from tripod.backends import active
from tripod.backends.common.stateless import StatelessScope

ops = active()


def _variable(shape=(2, 3), dtype="float32", name="kernel"):
    return ops.Variable(np.zeros(shape, dtype), dtype=dtype, name=name)


class CountingOnes:
    """An initializer of ones that counts its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, shape, dtype=None):
        self.calls += 1
        return np.ones(shape, dtype)


# -- the mapping's entries -------------------------------------------------------------------
def test_a_mapped_tensor_is_what_the_variable_reads():
    variable = _variable()
    value = ops.convert_to_tensor(np.full((2, 3), 2.0, "float32"))
    with StatelessScope([(variable, value)]):
        np.testing.assert_array_equal(ops.convert_to_numpy(variable.value), np.full((2, 3), 2.0))
    np.testing.assert_array_equal(variable.numpy(), np.zeros((2, 3)))


def test_a_key_that_is_not_a_variable_is_an_error():
    tensor = ops.zeros((2, 3))
    with pytest.raises(ValueError, match="every key of `state_mapping` must be a tripod Variable"):
        StatelessScope([(tensor, tensor)])


def test_a_value_of_another_shape_names_the_variable_and_both_shapes():
    variable = _variable()
    with pytest.raises(
        ValueError, match=r"'kernel' has shape \(3, 2\); expected the variable's shape \(2, 3\)"
    ):
        StatelessScope([(variable, ops.zeros((3, 2)))])


def test_a_value_of_another_rank_is_an_error():
    with pytest.raises(ValueError, match=r"has shape \(6,\); expected .* \(2, 3\)"):
        StatelessScope([(_variable(), ops.zeros((6,)))])


@pytest.mark.parametrize("kind", ["variable", "tensor"])
def test_a_value_of_another_dtype_is_cast_to_the_variables(kind):
    """As Keras casts a state_mapping value to its variable's dtype."""
    variable = _variable()
    value = _variable(dtype="int32", name="counts")
    value.assign(np.full((2, 3), 7, "int32"))
    if kind == "tensor":
        value = ops.convert_to_tensor(np.full((2, 3), 7, "int32"))
    with StatelessScope([(variable, value)]):
        assert tripod.backend.standardize_dtype(variable.value.dtype) == "float32"
        np.testing.assert_array_equal(ops.convert_to_numpy(variable.value), np.full((2, 3), 7.0))


def test_a_value_that_is_not_a_tensor_is_an_error():
    with pytest.raises(ValueError, match="must be a tensor of shape \\(2, 3\\) and dtype float32"):
        StatelessScope([(_variable(), "zeros")])


def test_host_values_take_the_variables_dtype():
    """NumPy's default float64 and Python lists are cast, as Keras converts them."""
    variable = _variable(shape=(2,))
    for value in (np.array([1.5, 2.5]), [1.5, 2.5]):
        with StatelessScope([(variable, value)]):
            read = variable.value
            assert tripod.backend.standardize_dtype(read.dtype) == "float32"
            np.testing.assert_array_equal(ops.convert_to_numpy(read), [1.5, 2.5])


def test_a_variable_as_value_stands_for_its_value():
    variable, other = _variable(), ops.Variable(np.full((2, 3), 4.0, "float32"))
    with StatelessScope([(variable, other)]):
        np.testing.assert_array_equal(ops.convert_to_numpy(variable.value), np.full((2, 3), 4.0))


# -- initialize_variables ----------------------------------------------------------------------
def test_variables_made_inside_are_initialized_by_default():
    ones = CountingOnes()
    with StatelessScope():
        variable = ops.Variable(ones, shape=(2,), dtype="float32")
    assert ones.calls == 1
    np.testing.assert_array_equal(variable.numpy(), [1.0, 1.0])


def test_without_initialize_variables_the_initializer_waits_until_the_value_is_needed():
    ones = CountingOnes()
    with StatelessScope(initialize_variables=False):
        variable = ops.Variable(ones, shape=(2,), dtype="float32")
    assert ones.calls == 0 and variable.shape == (2,) and variable.dtype == "float32"
    np.testing.assert_array_equal(variable.numpy(), [1.0, 1.0])
    assert ones.calls == 1
    np.testing.assert_array_equal(variable.numpy(), [1.0, 1.0])
    assert ones.calls == 1  # initialized once


def test_a_later_outermost_scope_initializes_what_waited():
    ones = CountingOnes()
    with StatelessScope(initialize_variables=False):
        variable = ops.Variable(ones, shape=(3,), dtype="float32")
    with StatelessScope():
        assert ones.calls == 0
    assert ones.calls == 1
    np.testing.assert_array_equal(variable.numpy(), np.ones(3))


def test_an_outer_scope_that_initializes_decides_for_an_inner_one():
    ones = CountingOnes()
    with StatelessScope(), StatelessScope(initialize_variables=False):
        ops.Variable(ones, shape=(2,), dtype="float32")
    assert ones.calls == 1


def test_assigning_a_variable_that_waited_gives_it_the_assigned_value():
    with StatelessScope(initialize_variables=False):
        variable = ops.Variable(CountingOnes(), shape=(2,), dtype="float32")
    variable.assign(np.array([3.0, 4.0], "float32"))
    np.testing.assert_array_equal(variable.numpy(), [3.0, 4.0])
    with StatelessScope():  # nothing waits any more: the assigned value stays
        pass
    np.testing.assert_array_equal(variable.numpy(), [3.0, 4.0])
    variable.assign_add(np.array([1.0, 1.0], "float32"))
    np.testing.assert_array_equal(variable.numpy(), [4.0, 5.0])


def test_a_layer_built_without_initialization_computes_once_initialized():
    layer = tripod.layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros")
    with StatelessScope(initialize_variables=False):
        layer.build((None, 3))
    out = layer(ops.convert_to_tensor(np.full((1, 3), 2.0, "float32")))
    np.testing.assert_allclose(ops.convert_to_numpy(out), [[6.0, 6.0]])
