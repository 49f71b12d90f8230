"""Test helpers: running a layer with random weights on channels_last data in either data
format, per-dim layer arguments, and comparing outputs."""

import numpy as np

from tests.layers.convolution import reference as ref
from tests.layers.harness import random_input, to_numpy


def run_with_random_weights(layer, x_last, data_format):
    """Build `layer` for `x_last` (given channels_last, transposed for channels_first), give it
    random weights; return its output as channels_last and the weights."""
    x = x_last if data_format == "channels_last" else ref.to_channels_first(x_last)
    layer.build(x.shape)
    weights = [random_input(tuple(v.shape), seed=i + 1) for i, v in enumerate(layer.weights)]
    layer.set_weights(weights)
    y = to_numpy(layer(x))
    return (y if data_format == "channels_last" else ref.to_channels_last(y)), weights


def per_dim(value, rank):
    """A layer argument given as an int or a tuple as one value per spatial dim; None stays None."""
    if value is None:
        return None
    return (value,) * rank if isinstance(value, int) else tuple(value)


def assert_close(actual, expected, atol=1e-4):
    assert actual.shape == expected.shape, f"shape {actual.shape} != {expected.shape}"
    np.testing.assert_allclose(actual, expected, atol=atol, rtol=1e-4)
