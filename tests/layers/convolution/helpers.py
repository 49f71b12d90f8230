"""Test helpers: the shared layer test with a working symbolic check, and running a layer with
random weights on channels_last data in either data format."""

import numpy as np
import pytest

from tests.layers.convolution import reference as ref
from tests.layers.harness import random_input, run_layer_test, to_numpy
from tripod.backends import config
from tripod.layers import Input

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


def layer_test(layer_cls, init_kwargs, input_shape, **kwargs):
    """`run_layer_test` plus the symbolic-vs-eager shape check for a single output.

    (The harness's own symbolic check flattens a single output shape into ints; until it is
    fixed it runs with `run_symbolic_check=False` and the check is done here.)
    """
    data = random_input(input_shape)
    out = run_layer_test(
        layer_cls, init_kwargs, input_data=data, run_symbolic_check=False, **kwargs
    )  # fmt: skip
    symbolic = layer_cls(**init_kwargs)(Input(batch_shape=(None,) + tuple(input_shape[1:])))
    assert len(symbolic.shape) == out.ndim
    assert all(s is None or s == r for s, r in zip(symbolic.shape, out.shape)), (
        f"{layer_cls.__name__}: symbolic {symbolic.shape} vs eager {out.shape}"
    )
    return out


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
