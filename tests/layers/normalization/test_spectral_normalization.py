"""SpectralNormalization: the wrapped kernel is divided by its largest singular value."""

import numpy as np
import pytest

import tripod
from tests.layers.harness import random_input, run_layer_test, to_numpy
from tripod import layers


def test_contract_and_weights():
    run_layer_test(
        layers.SpectralNormalization,
        {"layer": layers.Dense(3)},
        input_shape=(2, 4),
        expected_output_shape=(2, 3),
        expected_num_trainable_weights=2,
        expected_num_non_trainable_weights=1,
    )
    layer = layers.SpectralNormalization(layers.Dense(3, name="inner"), name="sn")
    layer.build((None, 4))
    assert [(v.path, v.shape) for v in layer._own_weights()] == [
        ("sn/inner/kernel", (4, 3)),
        ("sn/vector_u", (1, 3)),
    ]
    assert list(layer.get_config()) == ["name", "trainable", "dtype", "layer", "power_iterations"]


def test_training_normalizes_the_kernel():
    # Seeded: vector_u's random start, drawn from the global seed, sets how fast the power
    # iteration converges, which otherwise depends on the tests run before in the process.
    tripod.utils.set_random_seed(0)
    x = random_input((2, 4))
    layer = layers.SpectralNormalization(layers.Dense(3, use_bias=False), power_iterations=30)
    layer.build(x.shape)
    kernel = random_input((4, 3), seed=7) * 3
    layer.layer.kernel.assign(kernel)
    out = to_numpy(layer(x, training=True))
    sigma = np.linalg.svd(kernel, compute_uv=False)[0]
    np.testing.assert_allclose(layer.layer.kernel.numpy(), kernel / sigma, rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(out, x @ (kernel / sigma), rtol=1e-3, atol=1e-4)
    # At inference the kernel is used as it is.
    before = layer.layer.kernel.numpy()
    np.testing.assert_allclose(to_numpy(layer(x)), x @ before, rtol=1e-5, atol=1e-5)


def test_errors():
    with pytest.raises(ValueError, match="kernel"):
        layers.SpectralNormalization(layers.Activation("relu"))(random_input((2, 3)))
    with pytest.raises(ValueError, match="power_iterations"):
        layers.SpectralNormalization(layers.Dense(2), power_iterations=0)


def test_an_embedding_keeps_its_float_output_for_integer_indices():
    """Wrapping an Embedding: the lookups come back as floats, not cast to the indices' dtype
    (an inference call looks up the weights as they are)."""
    embedding = layers.Embedding(4, 2, embeddings_initializer="ones")
    out = layers.SpectralNormalization(embedding)(np.array([[1, 3]]))
    assert tripod.ops.dtype(out) == "float32"
    np.testing.assert_array_equal(to_numpy(out), np.ones((1, 2, 2)))
