"""One gradient step through the layers whose training hits a known TensorFlow backend gap
(elsewhere the contract tests already take this step)."""

import pytest

from tests.layers.convolution.helpers import ON_TF, TF_CONV3D_EAGER_GRAD, TF_GROUPED_CONV_GRAD
from tests.layers.harness import run_layer_test
from tripod import layers

pytestmark = pytest.mark.skipif(not ON_TF, reason="the contract tests take this step here")


@pytest.mark.parametrize("cls,kwargs,shape", [
    pytest.param(layers.Conv3D, {"filters": 2, "kernel_size": 2}, (2, 3, 3, 3, 2),
                 marks=TF_CONV3D_EAGER_GRAD),
    pytest.param(layers.Conv2D, {"filters": 4, "kernel_size": 2, "groups": 2}, (2, 4, 4, 4),
                 marks=TF_GROUPED_CONV_GRAD),
    pytest.param(layers.DepthwiseConv2D, {"kernel_size": 2}, (2, 4, 4, 3),
                 marks=TF_GROUPED_CONV_GRAD),
    pytest.param(layers.SeparableConv1D, {"filters": 2, "kernel_size": 2}, (2, 5, 3),
                 marks=TF_GROUPED_CONV_GRAD),
])  # fmt: skip
def test_one_gradient_step(cls, kwargs, shape):
    run_layer_test(cls, kwargs, input_shape=shape, run_symbolic_check=False)
