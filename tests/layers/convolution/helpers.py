"""Test helpers: known backend gaps, and running a layer with random weights on channels_last
data in either data format."""

import numpy as np
import pytest

from tests.layers.convolution import reference as ref
from tests.layers.harness import random_input, to_numpy
from tripod.backends import config

# Known TensorFlow backend gaps (tripod/backends/tensorflow/nn.py, reported to its owner): the
# contract tests skip the gradient step there, and test_training.py expects it to fail.
ON_TF = config.backend() == "tensorflow"
TF_CONV3D_EAGER_GRAD = pytest.mark.xfail(
    ON_TF, strict=False,
    reason="TF's eager Conv3D gradient fails unless tf.nn.convolution gets an explicit "
    "data_format ('NDHWC'); the TF backend's conv does not pass one",
)  # fmt: skip
TF_GROUPED_CONV_GRAD = pytest.mark.xfail(
    ON_TF, strict=False,
    reason="TensorFlow has no CPU gradient for grouped convolutions, which the TF backend's "
    "conv (groups > 1, 1D/2D) and depthwise_conv / separable_conv use",
)  # fmt: skip


def run_with_random_weights(layer, x_last, data_format):
    """Build `layer` for `x_last` (given channels_last, transposed for channels_first), give it
    random weights; return its output as channels_last and the weights."""
    x = x_last if data_format == "channels_last" else ref.to_channels_first(x_last)
    layer.build(x.shape)
    weights = [random_input(tuple(v.shape), seed=i + 1) for i, v in enumerate(layer.weights)]
    layer.set_weights(weights)
    y = to_numpy(layer(x))
    return (y if data_format == "channels_last" else ref.to_channels_last(y)), weights


def assert_close(actual, expected, atol=1e-4):
    assert actual.shape == expected.shape, f"shape {actual.shape} != {expected.shape}"
    np.testing.assert_allclose(actual, expected, atol=atol, rtol=1e-4)
