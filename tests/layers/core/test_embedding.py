"""Embedding: lookup against NumPy indexing, mask_zero, `weights=`, config and errors."""

import numpy as np
import pytest

import tripod
from tests.layers.harness import random_input, run_layer_test, to_numpy
from tripod import layers, ops
from tripod.backends import config


def test_embedding_layer_test_and_lookup():
    ids = random_input((2, 4), "int32", high=10)
    out = run_layer_test(
        layers.Embedding,
        {"input_dim": 10, "output_dim": 3},
        input_data=ids,
        input_dtype="int32",
        expected_output_shape=(2, 4, 3),
        expected_output_dtype="float32",
        expected_num_trainable_weights=1,
        supports_masking=False,
        run_training_check=False,
    )
    assert out.shape == (2, 4, 3)
    layer = layers.Embedding(10, 3)
    out = to_numpy(layer(ids))
    table = layer.embeddings.numpy()
    np.testing.assert_allclose(out, table[ids])
    assert [v.name for v in layer.weights] == ["embeddings"]
    assert np.abs(table).max() <= 0.05  # the "uniform" initializer: U(-0.05, 0.05)


@pytest.mark.skipif(config.backend() == "numpy", reason="the numpy backend has no gradients")
def test_embedding_gradient_reaches_looked_up_rows():
    layer = layers.Embedding(4, 2)
    ids = np.array([[1, 3, 3]], "int32")
    layer.build()
    _, (grad,) = tripod.value_and_grad(lambda: ops.sum(layer(ids)), [layer.embeddings])()
    np.testing.assert_allclose(
        ops.convert_to_numpy(ops.cast(grad, "float32")), [[0, 0], [1, 1], [0, 0], [2, 2]]
    )


def test_embedding_casts_float_indices():
    layer = layers.Embedding(5, 2)
    out = to_numpy(layer(np.array([[1.0, 4.0]], "float32")))
    np.testing.assert_allclose(out, layer.embeddings.numpy()[[[1, 4]]])


def test_embedding_mask_zero():
    layer = layers.Embedding(5, 2, mask_zero=True)
    assert layer.supports_masking
    ids = np.array([[0, 3, 0, 1]], "int32")
    np.testing.assert_array_equal(to_numpy(layer.compute_mask(ids)), ids != 0)
    assert layers.Embedding(5, 2).compute_mask(ids) is None
    symbolic = layer(layers.Input((4,), dtype="int32"))
    assert tuple(symbolic._keras_mask.shape) == (None, 4)


def test_embedding_initial_weights():
    table = np.arange(10, dtype="float32").reshape(5, 2)
    layer = layers.Embedding(5, 2, weights=[table])
    assert layer.built
    np.testing.assert_allclose(to_numpy(layer(np.array([[4, 0]]))), table[[[4, 0]]])
    layer = layers.Embedding(5, 2, weights=table)
    np.testing.assert_allclose(layer.embeddings.numpy(), table)


def test_embedding_errors():
    with pytest.raises(ValueError, match="input_dim"):
        layers.Embedding(0, 2)
    with pytest.raises(ValueError, match="output_dim"):
        layers.Embedding(3, -1)
