"""ConvNeXt Tiny-XLarge against Keras: parameter counts, layer names and outputs with Keras's
weights (every variant), the signatures, preprocess_input, the argument errors, the ImageNet file
each variant fetches, and the custom layers (LayerScale, StochasticDepth) saved and reloaded."""

import inspect
import sys

import numpy as np
import pytest

import tripod
from tests.applications import harness
from tripod.applications import convnext
from tripod.applications import weights as weights_lib

VARIANTS = ["ConvNeXtTiny", "ConvNeXtSmall", "ConvNeXtBase", "ConvNeXtLarge", "ConvNeXtXLarge"]
SMALL = (32, 32, 3)
NOTOP = {"include_top": False, "input_shape": SMALL, "pooling": "avg"}


TOP = {"input_shape": SMALL, "classes": 5, "classifier_activation": None}
PARITY = {
    **{f"{name}-top": (name, TOP) for name in VARIANTS},
    "avg": ("ConvNeXtTiny", NOTOP),  # also the stand-in for the published no-top file
    "max-no-preprocessing": (
        "ConvNeXtTiny",
        {**NOTOP, "pooling": "max", "include_preprocessing": False},
    ),
}


@pytest.mark.parametrize(("case", "level"), harness.parity_params(PARITY, {"avg"}))
def test_parity_with_keras(case, level):
    name, kwargs = PARITY[case]
    harness.check_application(convnext, name, SMALL, level, **kwargs)


@pytest.mark.parametrize("name", VARIANTS)
def test_signature_matches_keras(name):
    keras = harness.import_keras()
    expected = inspect.signature(getattr(keras.applications.convnext, name))
    assert inspect.signature(getattr(convnext, name)) == expected


def test_preprocess_input_passes_through_like_keras():
    keras = harness.import_keras()
    x = np.random.default_rng(1).uniform(0, 255, (2, 4, 4, 3)).astype("float32")
    expected = keras.applications.convnext.preprocess_input(x.copy())
    np.testing.assert_array_equal(convnext.preprocess_input(x.copy()), expected)


def test_argument_errors():
    with pytest.raises(ValueError, match="`weights` argument should be either"):
        convnext.ConvNeXtTiny(weights="/no/such/file.h5")
    with pytest.raises(ValueError, match="`classes` should be 1000"):
        convnext.ConvNeXtTiny(weights="imagenet", classes=5)
    with pytest.raises(ValueError, match="does not contain 'convnext_tiny'"):
        convnext.ConvNeXtTiny(weights="imagenet", name="mine", **NOTOP)
    with pytest.raises(ValueError, match="does not match the convnext_small weights"):
        convnext.ConvNeXt(
            [1, 1, 1, 1], [8, 8, 8, 8], weights="imagenet", weights_name="convnext_small"
        )


def test_channels_first_is_refused():
    tripod.config.set_image_data_format("channels_first")
    try:
        with pytest.raises(ValueError, match="channels_first"):
            convnext.ConvNeXtTiny(weights=None)
    finally:
        tripod.config.set_image_data_format("channels_last")


def test_weight_files_match_keras():
    keras = harness.import_keras()
    keras_convnext = sys.modules[keras.applications.convnext.ConvNeXtTiny.__module__]
    assert convnext.BASE_WEIGHTS_PATH == keras_convnext.BASE_WEIGHTS_PATH
    assert convnext.WEIGHTS_HASHES == keras_convnext.WEIGHTS_HASHES


def test_imagenet_loads_the_published_file(monkeypatch):
    """weights="imagenet" fetches `convnext_tiny_notop.h5` and loads it by layer name (Keras's
    legacy layout, as published): the outputs are Keras's."""
    folder = harness.keras_reference("ConvNeXtTiny", NOTOP, SMALL)
    fetched = []

    def fetch(url, file_hash, file_name=None):
        fetched.append((url, file_hash))
        return str(folder / "legacy.h5")

    monkeypatch.setattr(weights_lib, "fetch", fetch)
    model = convnext.ConvNeXtTiny(weights="imagenet", **NOTOP)
    assert fetched == [
        (
            f"{convnext.BASE_WEIGHTS_PATH}convnext_tiny_notop.h5",
            convnext.WEIGHTS_HASHES["convnext_tiny"][1],
        )
    ]
    io = np.load(folder / "io.npz")
    harness._assert_close(model.predict(io["x"], verbose=0), io["y"], "published layout")


def test_layer_scale_and_stochastic_depth():
    x = np.ones((6, 2, 2, 3), "float32")
    scale = convnext.LayerScale(0.25, 3)
    np.testing.assert_allclose(tripod.ops.convert_to_numpy(scale(x)), x * 0.25)
    depth = convnext.StochasticDepth(0.5, seed=3)
    np.testing.assert_array_equal(tripod.ops.convert_to_numpy(depth(x)), x)
    dropped = tripod.ops.convert_to_numpy(depth(np.ones((64, 2, 2, 3), "float32"), training=True))
    per_sample = dropped.reshape(64, -1)
    assert set(np.unique(per_sample).tolist()) == {0.0, 2.0}  # kept samples scaled by 1 / 0.5
    assert np.all(per_sample.min(axis=1) == per_sample.max(axis=1))  # whole samples dropped
    with pytest.raises(ValueError, match="drop_path_rate"):
        convnext.StochasticDepth(1.5)


def test_custom_layers_save_and_reload(tmp_path):
    """A small ConvNeXt with LayerScale and StochasticDepth layers round-trips through `.keras`
    (its custom layers are registered), giving the same outputs."""
    model = convnext.ConvNeXt(
        [1, 2, 1, 1], [8, 8, 16, 16], drop_path_rate=0.2, input_shape=SMALL, classes=3
    )
    names = [layer.name for layer in model.layers]
    assert "convnext_stage_1_block_1_stochastic_depth" in names
    assert "convnext_stage_0_block_0_identity" in names  # the first block's rate is 0
    model.save(tmp_path / "m.keras")
    loaded = tripod.saving.load_model(tmp_path / "m.keras")
    x = np.random.default_rng(0).uniform(0, 255, (2, *SMALL)).astype("float32")
    np.testing.assert_allclose(
        loaded.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-5, atol=1e-6
    )
    assert isinstance(loaded.get_layer("convnext_stage_1_block_1_layer_scale"), convnext.LayerScale)
