"""The elementwise merge layers: Add, Subtract, Multiply, Average, Maximum, Minimum."""

import functools

from tripod.backends import active
from tripod.layers.merging.base_merge import _Merge

ops = active()


class Add(_Merge):
    """The sum of its inputs."""

    def _merge_function(self, inputs):
        return functools.reduce(ops.add, inputs)


class Subtract(_Merge):
    """The first input minus the second (exactly two inputs)."""

    num_inputs = 2

    def _merge_function(self, inputs):
        return ops.subtract(inputs[0], inputs[1])


class Multiply(_Merge):
    """The elementwise product of its inputs."""

    def _merge_function(self, inputs):
        return functools.reduce(ops.multiply, inputs)


class Average(_Merge):
    """The elementwise mean of its inputs."""

    def _merge_function(self, inputs):
        return ops.divide(functools.reduce(ops.add, inputs), len(inputs))


class Maximum(_Merge):
    """The elementwise maximum of its inputs."""

    def _merge_function(self, inputs):
        return functools.reduce(ops.maximum, inputs)


class Minimum(_Merge):
    """The elementwise minimum of its inputs."""

    def _merge_function(self, inputs):
        return functools.reduce(ops.minimum, inputs)
