"""The elementwise merge layers: Add, Subtract, Multiply, Average, Maximum, Minimum."""

import functools

from tripod.backends import active
from tripod.layers.merging.base_merge import _Merge

ops = active()


class Add(_Merge):
    """Adds its inputs elementwise.

    Called on a list of tensors whose shapes broadcast together (an input of lower rank
    gets size-1 axes after the batch axis); the output has the broadcast shape.

    Args:
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: the inputs are not a list of tensors, or their shapes do not broadcast.

    Examples:
        >>> x, y = np.array([[1.0, 2.0]]), np.array([[10.0, 20.0]])
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.Add()([x, y])))
        [[11. 22.]]
        >>> tripod.layers.Add()([tripod.Input((4,)), tripod.Input((4,))]).shape
        (None, 4)
    """

    def _merge_function(self, inputs):
        return functools.reduce(ops.add, inputs)


class Subtract(_Merge):
    """Subtracts its second input from its first, elementwise.

    Called on a list of exactly two tensors whose shapes broadcast together (an input of lower
    rank gets size-1 axes after the batch axis); the output has the broadcast shape.

    Args:
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: the inputs are not a list of exactly two tensors, or their shapes do not
            broadcast.

    Examples:
        >>> x, y = np.array([[1.0, 2.0]]), np.array([[10.0, 20.0]])
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.Subtract()([y, x])))
        [[ 9. 18.]]
    """

    num_inputs = 2

    def _merge_function(self, inputs):
        return ops.subtract(inputs[0], inputs[1])


class Multiply(_Merge):
    """Multiplies its inputs elementwise.

    Called on a list of tensors whose shapes broadcast together (an input of lower rank
    gets size-1 axes after the batch axis); the output has the broadcast shape.

    Args:
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: the inputs are not a list of tensors, or their shapes do not broadcast.

    Examples:
        >>> x, y = np.array([[1.0, 2.0]]), np.array([[3.0, 4.0]])
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.Multiply()([x, y])))
        [[3. 8.]]
    """

    def _merge_function(self, inputs):
        return functools.reduce(ops.multiply, inputs)


class Average(_Merge):
    """Averages its inputs elementwise: their sum divided by their count.

    Called on a list of tensors whose shapes broadcast together (an input of lower rank
    gets size-1 axes after the batch axis); the output has the broadcast shape.

    Args:
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: the inputs are not a list of tensors, or their shapes do not broadcast.

    Examples:
        >>> x, y = np.array([[1.0, 2.0]]), np.array([[3.0, 6.0]])
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.Average()([x, y])))
        [[2. 4.]]
    """

    def _merge_function(self, inputs):
        return ops.divide(functools.reduce(ops.add, inputs), len(inputs))


class Maximum(_Merge):
    """The elementwise maximum of its inputs.

    Called on a list of tensors whose shapes broadcast together (an input of lower rank
    gets size-1 axes after the batch axis); the output has the broadcast shape.

    Args:
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: the inputs are not a list of tensors, or their shapes do not broadcast.

    Examples:
        >>> x, y = np.array([[1.0, 5.0]]), np.array([[3.0, 2.0]])
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.Maximum()([x, y])))
        [[3. 5.]]
    """

    def _merge_function(self, inputs):
        return functools.reduce(ops.maximum, inputs)


class Minimum(_Merge):
    """The elementwise minimum of its inputs.

    Called on a list of tensors whose shapes broadcast together (an input of lower rank
    gets size-1 axes after the batch axis); the output has the broadcast shape.

    Args:
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: the inputs are not a list of tensors, or their shapes do not broadcast.

    Examples:
        >>> x, y = np.array([[1.0, 5.0]]), np.array([[3.0, 2.0]])
        >>> print(tripod.ops.convert_to_numpy(tripod.layers.Minimum()([x, y])))
        [[1. 2.]]
    """

    def _merge_function(self, inputs):
        return functools.reduce(ops.minimum, inputs)
