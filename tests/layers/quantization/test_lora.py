"""LoRA on Dense, EinsumDense and Embedding: outputs against NumPy, Keras's errors and config,
training that moves only the adapters, and saved files that hold the merged weight (loading into
plain layers, tripod's and Keras's, both ways)."""

import numpy as np
import pytest

import tripod
from tests.keras_import import import_keras
from tripod import layers
from tripod.backends import config

RNG = np.random.default_rng(0)
TRAINS = config.backend() != "numpy"


def _randomize_lora(layer, names):
    """Give LoRA's A and B random values (B starts at zero, which would hide the update)."""
    for name in names:
        variable = getattr(layer, name)
        variable.assign(RNG.normal(size=tuple(variable.shape)).astype("float32"))


def _lora_layers():
    x2 = RNG.normal(size=(3, 4)).astype("float32")
    x3 = RNG.normal(size=(2, 3, 4)).astype("float32")
    ids = np.array([[1, 4, 0], [2, 2, 3]], "int32")
    return [
        (layers.Dense(5, use_bias=False), x2, lambda x, w: x @ w, "kernel"),
        (
            layers.EinsumDense("abc,cde->abde", (3, 2, 5)),
            x3,
            lambda x, w: np.einsum("abc,cde->abde", x, w),
            "kernel",
        ),
        (layers.Embedding(6, 4), ids, lambda x, w: w[x], "embeddings"),
    ]


@pytest.mark.parametrize("index", range(3), ids=["dense", "einsum", "embedding"])
def test_lora_output_matches_numpy_merged_weight(index):
    layer, x, reference, weight = _lora_layers()[index]
    before = tripod.ops.convert_to_numpy(layer(x))
    layer.enable_lora(2, lora_alpha=3.0)
    names = [n for n in vars(layer) if n.startswith("lora_") and n.endswith(("_a", "_b"))]
    np.testing.assert_allclose(tripod.ops.convert_to_numpy(layer(x)), before, atol=1e-6)
    _randomize_lora(layer, names)
    a, b = (getattr(layer, n).numpy() for n in sorted(names))
    base = getattr(layer, weight).numpy()
    expected = reference(x, base + 1.5 * (a @ b))
    np.testing.assert_allclose(tripod.ops.convert_to_numpy(layer(x)), expected, atol=1e-5)
    assert not getattr(layer, weight).trainable
    assert {v.name for v in layer.trainable_weights} >= set(names)


def test_lora_names_shapes_and_config():
    dense = layers.Dense(3, name="d")
    dense.build((None, 4))
    dense.enable_lora(2)
    assert [(v.name, tuple(v.shape)) for v in dense.weights if v.name.startswith("lora")] == [
        ("lora_kernel_a", (4, 2)),
        ("lora_kernel_b", (2, 3)),
    ]
    cfg = dense.get_config()
    assert (cfg["lora_rank"], cfg["lora_alpha"]) == (2, 2)
    rebuilt = layers.Dense.from_config(cfg)
    rebuilt.build((None, 4))
    assert rebuilt.lora_enabled and tuple(rebuilt.lora_kernel_b.shape) == (2, 3)
    einsum = layers.EinsumDense("ab,bcd->acd", (2, 3), lora_rank=4, lora_alpha=8)
    einsum.build((None, 5))
    assert tuple(einsum.lora_kernel_a.shape) == (5, 2, 4) and einsum.lora_alpha == 8
    embedding = layers.Embedding(7, 3)
    embedding.build()
    embedding.enable_lora(1)
    assert [tuple(v.shape) for v in (embedding.lora_embeddings_a, embedding.lora_embeddings_b)] == [
        (7, 1),
        (1, 3),
    ]


def test_lora_errors():
    dense = layers.Dense(3)
    with pytest.raises(ValueError, match="not built"):
        dense.enable_lora(2)
    dense.build((None, 4))
    dense.enable_lora(2)
    with pytest.raises(ValueError, match="already enabled"):
        dense.enable_lora(2)
    constrained = layers.Dense(3, kernel_constraint="non_neg")
    constrained.build((None, 4))
    with pytest.raises(ValueError, match="constraint"):
        constrained.enable_lora(2)
    with pytest.raises(ValueError, match="lora_rank"):
        layers.Dense(3, lora_rank=0)


def _model(lora_rank=None):
    model = tripod.Sequential(
        [tripod.Input((4,)), layers.Dense(8, name="h"), layers.Dense(2, name="out")]
    )
    if lora_rank:
        for layer in model.layers:
            layer.enable_lora(lora_rank)
    return model


@pytest.mark.skipif(not TRAINS, reason="the numpy backend is inference-only")
def test_fit_moves_only_the_adapters():
    model = _model(lora_rank=2)
    frozen = [layer.kernel.numpy() for layer in model.layers]
    adapters = [v.numpy() for v in model.trainable_weights if "lora" in v.name]
    model.compile(optimizer=tripod.optimizers.SGD(0.1), loss="mse")
    x, y = RNG.normal(size=(16, 4)), RNG.normal(size=(16, 2))
    model.fit(x, y, batch_size=8, epochs=2, verbose=0)
    for layer, kernel in zip(model.layers, frozen):
        np.testing.assert_array_equal(layer.kernel.numpy(), kernel)
    after = [v.numpy() for v in model.trainable_weights if "lora" in v.name]
    assert all(not np.array_equal(a, b) for a, b in zip(adapters, after))


def test_saved_file_holds_merged_kernel_and_loads_into_plain_model(tmp_path):
    model = _model(lora_rank=2)
    for layer in model.layers:
        _randomize_lora(layer, ["lora_kernel_a", "lora_kernel_b"])
    x = RNG.normal(size=(5, 4)).astype("float32")
    expected = model.predict(x, verbose=0)
    model.save_weights(tmp_path / "lora.weights.h5")
    plain = _model()
    plain.load_weights(tmp_path / "lora.weights.h5")
    np.testing.assert_allclose(plain.predict(x, verbose=0), expected, atol=1e-5)
    again = _model(lora_rank=2)
    again.load_weights(tmp_path / "lora.weights.h5")
    np.testing.assert_allclose(again.predict(x, verbose=0), expected, atol=1e-5)
    assert not again.layers[0].lora_kernel_b.numpy().any()  # Keras zeroes A and B on load


def test_keras_file_round_trip_keeps_lora_enabled(tmp_path):
    model = _model(lora_rank=2)
    for layer in model.layers:
        _randomize_lora(layer, ["lora_kernel_a", "lora_kernel_b"])
    x = RNG.normal(size=(5, 4)).astype("float32")
    model.save(tmp_path / "lora.keras")
    loaded = tripod.saving.load_model(tmp_path / "lora.keras")
    assert all(layer.lora_enabled for layer in loaded.layers)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), atol=1e-5)


def _keras_lora_model(keras):
    model = keras.Sequential(
        [keras.Input((4,)), keras.layers.Dense(8, name="h"), keras.layers.Dense(2, name="out")]
    )
    for layer in model.layers:
        layer.enable_lora(2)
        layer.lora_kernel_b.assign(RNG.normal(size=(2, layer.units)).astype("float32"))
    return model


def test_keras_lora_file_loads_into_tripod_and_back(tmp_path):
    keras = import_keras()
    kmodel = _keras_lora_model(keras)
    x = RNG.normal(size=(5, 4)).astype("float32")
    expected = np.asarray(kmodel.predict(x, verbose=0))
    kmodel.save_weights(tmp_path / "keras.weights.h5")
    for model in (_model(), _model(lora_rank=2)):
        model.load_weights(tmp_path / "keras.weights.h5")
        np.testing.assert_allclose(model.predict(x, verbose=0), expected, atol=1e-5)
    mine = _model(lora_rank=2)
    for layer in mine.layers:
        _randomize_lora(layer, ["lora_kernel_a", "lora_kernel_b"])
    mine.save_weights(tmp_path / "tripod.weights.h5")
    plain = keras.Sequential(
        [keras.Input((4,)), keras.layers.Dense(8, name="h"), keras.layers.Dense(2, name="out")]
    )
    plain.load_weights(tmp_path / "tripod.weights.h5")
    np.testing.assert_allclose(
        np.asarray(plain.predict(x, verbose=0)), mine.predict(x, verbose=0), atol=1e-5
    )
