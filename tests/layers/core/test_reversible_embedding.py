"""ReversibleEmbedding: lookup, tied and separate reverse projections against NumPy, soft cap,
reverse dtype, masks, config and a .keras round trip."""

import numpy as np
import pytest

import tripod
from tests.layers.harness import TRAINS, random_input, run_layer_test, to_numpy
from tripod.layers.core.reversible_embedding import ReversibleEmbedding


@pytest.mark.parametrize("tie_weights", [True, False])
def test_layer_test_forward(tie_weights):
    ids = random_input((2, 4), "int32", high=10)
    run_layer_test(
        ReversibleEmbedding,
        {"input_dim": 10, "output_dim": 3, "tie_weights": tie_weights},
        input_data=ids,
        input_dtype="int32",
        expected_output_shape=(2, 4, 3),
        expected_output_dtype="float32",
        expected_num_trainable_weights=1 if tie_weights else 2,
        run_training_check=False,
    )


def test_reverse_tied_and_separate_against_numpy():
    hidden = random_input((2, 5, 3))
    tied = ReversibleEmbedding(7, 3)
    ids = np.array([[0, 6, 2]])
    out = to_numpy(tied(ids))
    table = tied.embeddings.numpy()
    np.testing.assert_allclose(out, table[ids])
    logits = to_numpy(tied(hidden, reverse=True))
    assert logits.shape == (2, 5, 7)
    np.testing.assert_allclose(logits, hidden @ table.T, rtol=1e-5, atol=1e-5)
    separate = ReversibleEmbedding(7, 3, tie_weights=False, embeddings_initializer="ones")
    separate.build()
    assert [v.name for v in separate.weights] == ["embeddings", "reverse_embeddings"]
    assert separate.reverse_embeddings.shape == (3, 7)
    separate.reverse_embeddings.assign(np.arange(21, dtype="float32").reshape(3, 7) / 10)
    expected = hidden @ (np.arange(21, dtype="float32").reshape(3, 7) / 10)
    np.testing.assert_allclose(
        to_numpy(separate(hidden, reverse=True)), expected, rtol=1e-5, atol=1e-5
    )


def test_soft_cap_and_reverse_dtype():
    layer = ReversibleEmbedding(
        4, 2, embeddings_initializer="ones", logit_soft_cap=2.0, reverse_dtype="float16"
    )
    hidden = np.array([[3.0, 1.0], [-0.5, 0.25]], "float32")
    out = layer(hidden, reverse=True)
    assert tripod.ops.dtype(out) == "float16"
    expected = np.tanh(np.repeat(hidden.sum(-1, keepdims=True), 4, -1) / 2.0) * 2.0
    np.testing.assert_allclose(to_numpy(out).astype("float32"), expected, rtol=2e-3, atol=2e-3)


def test_no_mask_even_with_mask_zero_as_in_keras():
    layer = ReversibleEmbedding(5, 2, mask_zero=True)
    ids = tripod.ops.convert_to_tensor(np.array([[1, 0, 3]]))
    assert layer.compute_mask(ids, mask=None) is None
    assert getattr(layer(ids), "_keras_mask", None) is None
    embedding = tripod.layers.Embedding(5, 2, mask_zero=True)  # the plain lookup masks
    np.testing.assert_array_equal(to_numpy(embedding.compute_mask(ids, mask=None)), [[1, 0, 1]])


def test_symbolic_shapes():
    ids = tripod.Input((6,), dtype="int32")
    layer = ReversibleEmbedding(9, 4)
    hidden = layer(ids)
    logits = layer(hidden, reverse=True)
    assert tuple(hidden.shape) == (None, 6, 4) and tuple(logits.shape) == (None, 6, 9)
    assert layer.compute_output_shape((2, 6, 4), reverse=True) == (2, 6, 9)


def test_config_and_errors():
    layer = ReversibleEmbedding(
        9, 4, tie_weights=False, logit_soft_cap=30.0, reverse_dtype="float32"
    )
    config = layer.get_config()
    assert config["tie_weights"] is False and config["logit_soft_cap"] == 30.0
    assert config["reverse_dtype"] == "float32"
    assert ReversibleEmbedding.from_config(config).get_config() == config
    with pytest.raises(ValueError, match="logit_soft_cap"):
        ReversibleEmbedding(9, 4, logit_soft_cap=-1)
    with pytest.raises(ValueError, match="input_dim"):
        ReversibleEmbedding(0, 4)


@pytest.mark.parametrize("tie_weights", [True, False])
def test_keras_round_trip_and_training(tmp_path, tie_weights):
    ids = tripod.Input((5,), dtype="int32")
    embed = ReversibleEmbedding(11, 4, tie_weights=tie_weights)
    logits = embed(tripod.layers.Dense(4)(embed(ids)), reverse=True)
    model = tripod.Model(ids, logits)
    x = random_input((8, 5), "int32", high=11)
    if TRAINS:
        model.compile(
            optimizer="adam", loss=tripod.losses.SparseCategoricalCrossentropy(from_logits=True)
        )
        before = embed.embeddings.numpy().copy()
        model.fit(x, x, epochs=1, batch_size=4, verbose=0)
        assert not np.allclose(before, embed.embeddings.numpy())
    path = str(tmp_path / "m.keras")
    model.save(path)
    loaded = tripod.saving.load_model(path)
    np.testing.assert_allclose(
        to_numpy(loaded.predict(x, verbose=0)),
        to_numpy(model.predict(x, verbose=0)),
        rtol=1e-6,
        atol=1e-6,
    )
