"""EfficientNet B0-B7 against Keras: parameter counts, layer names and outputs with Keras's
weights (every variant), the signatures, preprocess_input, the argument errors, and the
normalization statistics and extra rescaling of the published ImageNet files."""

import inspect
import shutil
import sys

import h5py
import numpy as np
import pytest

import tripod
from tests.applications import harness
from tripod.applications import efficientnet
from tripod.applications import weights as weights_lib

VARIANTS = [f"EfficientNetB{i}" for i in range(8)]
SMALL = (32, 32, 3)


@pytest.fixture(autouse=True)
def fresh_names():
    """Automatic layer names (`rescaling`, `normalization`) start afresh in tripod and in Keras,
    so they compare equal whichever models were built before."""
    tripod.utils.clear_session()
    if "keras" in sys.modules:
        sys.modules["keras"].backend.clear_session(free_memory=False)


TOP = {"input_shape": SMALL, "classes": 5, "classifier_activation": None}
PARITY = {
    **{f"{name}-top": (name, TOP) for name in VARIANTS},
    # B0's is also the stand-in for the published no-top file
    "b0-avg": ("EfficientNetB0", {"include_top": False, "input_shape": SMALL, "pooling": "avg"}),
    "b1-max": ("EfficientNetB1", {"include_top": False, "input_shape": SMALL, "pooling": "max"}),
}


@pytest.mark.parametrize(("case", "level"), harness.parity_params(PARITY, {"b0-avg"}))
def test_parity_with_keras(case, level):
    name, kwargs = PARITY[case]
    harness.check_application(efficientnet, name, SMALL, level, **kwargs)


@pytest.mark.parametrize("name", VARIANTS)
def test_signature_matches_keras(name):
    keras = harness.import_keras()
    expected = inspect.signature(getattr(keras.applications.efficientnet, name))
    assert inspect.signature(getattr(efficientnet, name)) == expected


def test_preprocess_input_passes_through_like_keras():
    keras = harness.import_keras()
    x = np.random.default_rng(1).uniform(0, 255, (2, 4, 4, 3)).astype("float32")
    expected = keras.applications.efficientnet.preprocess_input(x.copy())
    np.testing.assert_array_equal(efficientnet.preprocess_input(x.copy()), expected)


def test_argument_errors():
    with pytest.raises(ValueError, match="`weights` argument should be either"):
        efficientnet.EfficientNetB0(weights="/no/such/file.h5")
    with pytest.raises(ValueError, match="`classes` should be 1000"):
        efficientnet.EfficientNetB0(weights="imagenet", classes=5)
    with pytest.raises(ValueError, match="at least 32x32"):
        efficientnet.EfficientNetB0(weights=None, input_shape=(16, 16, 3))


def record_fetch(monkeypatch, path):
    """Make "imagenet" weights load the file at `path` in place of downloading; the list it
    returns receives the (url, file_hash) of each fetch."""
    fetched = []

    def fetch(url, file_hash, file_name=None):
        fetched.append((url, file_hash))
        return str(path)

    monkeypatch.setattr(weights_lib, "fetch", fetch)
    return fetched


def _names(attribute):
    return [n.decode() if isinstance(n, bytes) else str(n) for n in attribute]


def _published_like_file(tmp_path, mean, variance):
    """Keras's legacy `.h5` of a no-top B0 (the layout of the published files) with the given
    normalization statistics written in place of the untrained ones."""
    kwargs = {"include_top": False, "input_shape": SMALL, "pooling": "avg"}
    folder = harness.keras_reference("EfficientNetB0", kwargs, SMALL)
    path = tmp_path / "efficientnetb0_notop.h5"
    shutil.copy(folder / "legacy.h5", path)
    with h5py.File(path, "r+") as f:
        (layer,) = [n for n in _names(f.attrs["layer_names"]) if n.startswith("normalization")]
        group = f[layer]
        names = _names(group.attrs["weight_names"])
        group[names[0]][...] = mean
        group[names[1]][...] = variance
    return path


def _normalized(model, layer_name, x):
    """The output of `layer_name` in `model` for input `x`."""
    probe = tripod.Model(model.inputs, model.get_layer(layer_name).output)
    return np.asarray(probe.predict(x, verbose=0))


def test_imagenet_file_normalization_and_rescaling(tmp_path, monkeypatch):
    """weights="imagenet" fetches Keras's file for the variant; its mean and variance load into
    the Normalization layer, and the extra per-channel rescaling follows it."""
    mean = np.array([0.485, 0.456, 0.406], "float32")
    variance = np.square(efficientnet.IMAGENET_STDDEV_RGB).astype("float32")
    fetched = record_fetch(monkeypatch, _published_like_file(tmp_path, mean, variance))
    model = efficientnet.EfficientNetB0(
        weights="imagenet", include_top=False, input_shape=SMALL, pooling="avg"
    )
    assert fetched == [
        (
            "https://storage.googleapis.com/keras-applications/efficientnetb0_notop.h5",
            "50bc09e76180e00e4465e1a485ddc09d",
        )
    ]
    names = [layer.name for layer in model.layers[:5]]
    assert names == ["input_layer", "rescaling", "normalization", "rescaling_1", "stem_conv_pad"]
    x = np.random.default_rng(2).uniform(0, 255, (2, *SMALL)).astype("float32")
    expected = (x / 255.0 - mean) / np.sqrt(variance)
    np.testing.assert_allclose(
        _normalized(model, "normalization", x), expected, rtol=1e-5, atol=1e-5
    )
    scaled = expected / np.sqrt(np.asarray(efficientnet.IMAGENET_STDDEV_RGB))
    np.testing.assert_allclose(_normalized(model, "rescaling_1", x), scaled, rtol=1e-5, atol=1e-5)
