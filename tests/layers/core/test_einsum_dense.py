"""EinsumDense: shapes of kernel/bias/output for several equations, and values vs np.einsum."""

import numpy as np
import pytest

from tests.layers.harness import random_input, run_layer_test, to_numpy
from tripod import layers

CASES = [
    # equation, output_shape, bias_axes, input shape, kernel shape, bias shape, output shape
    ("ab,bc->ac", 4, "c", (2, 3), (3, 4), (4,), (2, 4)),
    ("abc,cde->abde", (None, 4, 5), "de", (2, 3, 6), (6, 4, 5), (4, 5), (2, 3, 4, 5)),
    ("abc,cde->abde", (None, 4, 5), "d", (2, 3, 6), (6, 4, 5), (4, 1), (2, 3, 4, 5)),
    ("abc,cd->abd", (3, 4), "bd", (2, 3, 5), (5, 4), (3, 4), (2, 3, 4)),
    ("...b,bc->...c", 4, "c", (2, 5, 3), (3, 4), (4,), (2, 5, 4)),
    ("ab...,bc->ac...", 4, None, (2, 3, 5), (3, 4), None, (2, 4, 5)),
    # plain matrix products over two contracted axes (one matmul with the bias fused)
    ("abcd,cde->abe", (None, 4), "e", (2, 3, 5, 6), (5, 6, 4), (4,), (2, 3, 4)),
    ("abc,bcd->ad", 4, None, (2, 3, 5), (3, 5, 4), None, (2, 4)),
]


@pytest.mark.parametrize("equation,output_shape,bias_axes,in_shape,kernel,bias,out_shape", CASES)
def test_einsum_dense_shapes_and_values(
    equation, output_shape, bias_axes, in_shape, kernel, bias, out_shape
):
    init = {
        "equation": equation,
        "output_shape": output_shape,
        "bias_axes": bias_axes,
        "bias_initializer": "random_normal",
    }
    run_layer_test(
        layers.EinsumDense,
        init,
        input_shape=in_shape,
        expected_output_shape=out_shape,
        expected_num_trainable_weights=1 if bias is None else 2,
    )
    layer = layers.EinsumDense(**init)
    x = random_input(in_shape)
    out = to_numpy(layer(x))
    assert layer.kernel.shape == kernel
    assert [v.name for v in layer.weights] == ["kernel"] + ([] if bias is None else ["bias"])
    expected = np.einsum(equation, x, layer.kernel.numpy())
    if bias is not None:
        assert layer.bias.shape == bias
        expected = expected + layer.bias.numpy()
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    assert layer.compute_output_shape((None,) + in_shape[1:]) == (None,) + out_shape[1:]


def test_einsum_dense_activation_and_fan_aware_init():
    layer = layers.EinsumDense("abc,cde->abde", (None, 40, 50), activation="relu")
    out = to_numpy(layer(random_input((1, 2, 60))))
    assert out.min() >= 0
    # Glorot over the einsum's fans: fan_in = 60, fan_out = 40 * 50.
    assert np.abs(layer.kernel.numpy()).max() <= np.sqrt(6 / (60 + 2000)) + 1e-6
    assert np.abs(layer.kernel.numpy()).max() > np.sqrt(6 / (2400 + 3000))
    assert layer.get_config()["kernel_initializer"]["config"]["input_axes"] is None


def test_einsum_dense_errors():
    with pytest.raises(ValueError, match="shared dimension 'b'"):
        layers.EinsumDense("abcd,cde->abe", (7, 4))(np.ones((2, 3, 4, 5), "float32"))
    with pytest.raises(ValueError, match="bias axis 'z'"):
        layers.EinsumDense("ab,bc->ac", 3, bias_axes="z")(np.ones((2, 3), "float32"))
    with pytest.raises(ValueError, match="equation"):
        layers.EinsumDense("ab->b", 3)
    with pytest.raises(ValueError, match="output_shape"):
        layers.EinsumDense("ab,bc->ac", (3, 4))(np.ones((2, 3), "float32"))
