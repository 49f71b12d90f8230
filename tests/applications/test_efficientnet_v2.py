"""EfficientNetV2 B0-B3, S, M and L against Keras: parameter counts, layer names and outputs with
Keras's weights (every variant, with and without the in-model preprocessing), the signatures,
preprocess_input, the argument errors, and the published file each variant fetches."""

import inspect

import numpy as np
import pytest

from tests.applications import harness
from tests.applications.test_efficientnet import (
    SMALL,
    fresh_names,  # noqa: F401 (autouse fixture)
    record_fetch,
)
from tripod.applications import efficientnet_v2

VARIANTS = [f"EfficientNetV2{v}" for v in ("B0", "B1", "B2", "B3", "S", "M", "L")]
NO_TOP = {"include_top": False, "input_shape": SMALL, "pooling": "avg"}


TOP = {"input_shape": SMALL, "classes": 5, "classifier_activation": None}
PARITY = {
    **{f"{name}-top": (name, TOP) for name in VARIANTS},
    "b0-avg": ("EfficientNetV2B0", NO_TOP),  # also the stand-in for the published no-top file
    "s-max": ("EfficientNetV2S", {**NO_TOP, "pooling": "max"}),
    "b0-no-preprocessing": ("EfficientNetV2B0", {**NO_TOP, "include_preprocessing": False}),
}


@pytest.mark.parametrize(("case", "level"), harness.parity_params(PARITY, {"b0-avg"}))
def test_parity_with_keras(case, level):
    name, kwargs = PARITY[case]
    harness.check_application(efficientnet_v2, name, SMALL, level, **kwargs)


def test_parity_one_channel():
    """A B variant on one channel rescales to [-1, 1] instead of normalizing RGB."""
    shape = (32, 32, 1)
    harness.check_application(
        efficientnet_v2, "EfficientNetV2B0", shape, include_top=False, input_shape=shape
    )


@pytest.mark.parametrize("name", VARIANTS)
def test_signature_matches_keras(name):
    keras = harness.import_keras()
    expected = inspect.signature(getattr(keras.applications.efficientnet_v2, name))
    assert inspect.signature(getattr(efficientnet_v2, name)) == expected


def test_preprocess_input_passes_through_like_keras():
    keras = harness.import_keras()
    x = np.random.default_rng(1).uniform(0, 255, (2, 4, 4, 3)).astype("float32")
    expected = keras.applications.efficientnet_v2.preprocess_input(x.copy())
    np.testing.assert_array_equal(efficientnet_v2.preprocess_input(x.copy()), expected)


def test_argument_errors():
    with pytest.raises(ValueError, match="`weights` argument should be either"):
        efficientnet_v2.EfficientNetV2S(weights="/no/such/file.h5")
    with pytest.raises(ValueError, match="`classes` should be 1000"):
        efficientnet_v2.EfficientNetV2S(weights="imagenet", classes=5)
    with pytest.raises(ValueError, match="at least 32x32"):
        efficientnet_v2.EfficientNetV2B0(weights=None, input_shape=(16, 16, 3))


@pytest.mark.parametrize(
    ("name", "file_name", "file_hash"),
    [
        ("EfficientNetV2B0", "efficientnetv2-b0_notop.h5", "893217f2bb855e2983157299931e43ff"),
        pytest.param(
            "EfficientNetV2S",
            "efficientnetv2-s_notop.h5",
            "af0682fb74e8c54910f2d4393339c070",
            marks=pytest.mark.slow,  # b0 covers the fetch; this builds a 158 MB reference
        ),
    ],
    ids=["b0", "s"],
)
def test_imagenet_weights_fetch_keras_file(name, file_name, file_hash, monkeypatch):
    """weights="imagenet" fetches the variant's published file (Keras's URL and hash) and loads
    it: here Keras's legacy `.h5` of the same model stands in for the download."""
    folder = harness.keras_reference(name, NO_TOP, SMALL)
    fetched = record_fetch(monkeypatch, folder / "legacy.h5")
    model = getattr(efficientnet_v2, name)(weights="imagenet", **NO_TOP)
    assert fetched == [(efficientnet_v2.BASE_WEIGHTS_PATH + file_name, file_hash)]
    assert efficientnet_v2.BASE_WEIGHTS_PATH == (
        "https://storage.googleapis.com/tensorflow/keras-applications/efficientnet_v2/"
    )
    io = np.load(folder / "io.npz")
    np.testing.assert_allclose(
        np.asarray(model.predict(io["x"], verbose=0)), io["y"], rtol=1e-4, atol=1e-4
    )
