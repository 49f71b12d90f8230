"""Merging layers (Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate, Dot) and
their functional forms (`add`, `concatenate`, ...): `add([x, y])` is `Add()([x, y])`."""

from tripod.layers.merging.concatenate import Concatenate
from tripod.layers.merging.dot import Dot
from tripod.layers.merging.elementwise import Add, Average, Maximum, Minimum, Multiply, Subtract


def add(inputs, **kwargs):
    """The sum of `inputs`."""
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    """inputs[0] - inputs[1]."""
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    """The elementwise product of `inputs`."""
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    """The elementwise mean of `inputs`."""
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    """The elementwise maximum of `inputs`."""
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    """The elementwise minimum of `inputs`."""
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    """`inputs` joined along `axis`."""
    return Concatenate(axis=axis, **kwargs)(inputs)


def dot(inputs, axes=-1, **kwargs):
    """The batched dot product of the two `inputs` along `axes`."""
    return Dot(axes=axes, **kwargs)(inputs)


__all__ = [
    "Add",
    "Average",
    "Concatenate",
    "Dot",
    "Maximum",
    "Minimum",
    "Multiply",
    "Subtract",
    "add",
    "average",
    "concatenate",
    "dot",
    "maximum",
    "minimum",
    "multiply",
    "subtract",
]
