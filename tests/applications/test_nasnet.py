"""NASNetMobile and NASNetLarge against Keras: parameter counts, layer names (hundreds of
automatic ones, in Keras's order) and outputs with Keras's weights, the signatures,
preprocess_input, the input-size rules and argument errors, and the ImageNet file each fetches."""

import inspect
import sys

import numpy as np
import pytest

import tripod
from tests.applications import harness
from tripod.applications import nasnet
from tripod.applications import weights as weights_lib

SMALL = (32, 32, 3)
NOTOP = {"include_top": False, "input_shape": SMALL, "pooling": "avg"}


TOP = {"input_shape": SMALL, "classes": 5, "classifier_activation": None}
PARITY = {
    "mobile-top": ("NASNetMobile", TOP),
    "large-top": ("NASNetLarge", TOP),
    "mobile-avg": ("NASNetMobile", NOTOP),  # also the stand-in for the published no-top file
}


@pytest.mark.parametrize(("case", "level"), harness.parity_params(PARITY, {"mobile-avg"}))
def test_parity_with_keras(case, level):
    name, kwargs = PARITY[case]
    harness.check_application(nasnet, name, SMALL, level, **kwargs)


@pytest.mark.parametrize("name", ["NASNetMobile", "NASNetLarge"])
def test_signature_matches_keras(name):
    keras = harness.import_keras()
    expected = inspect.signature(getattr(keras.applications.nasnet, name))
    assert inspect.signature(getattr(nasnet, name)) == expected


def test_preprocess_input_matches_keras():
    keras = harness.import_keras()
    x = np.random.default_rng(1).uniform(0, 255, (2, 4, 4, 3)).astype("float32")
    expected = keras.applications.nasnet.preprocess_input(x.copy())
    np.testing.assert_allclose(nasnet.preprocess_input(x.copy()), expected, rtol=1e-6)
    np.testing.assert_allclose(expected, x / 127.5 - 1.0, rtol=1e-6)


@pytest.mark.parametrize(
    ("name", "shape"),
    [("NASNetMobile", (331, 331, 3)), ("NASNetLarge", (224, 224, 3))],
    ids=["mobile", "large"],
)
def test_imagenet_with_top_needs_the_default_size(name, shape):
    """Each model's own default size (224 Mobile, 331 Large) is the only one its ImageNet
    classifier accepts: the same error as Keras's."""
    keras = harness.import_keras()
    with pytest.raises(ValueError) as expected:
        getattr(keras.applications.nasnet, name)(weights="imagenet", input_shape=shape)
    with pytest.raises(ValueError) as got:
        getattr(nasnet, name)(weights="imagenet", input_shape=shape)
    assert str(got.value) == str(expected.value)


def test_argument_errors():
    with pytest.raises(ValueError, match="`weights` argument should be either"):
        nasnet.NASNetMobile(weights="/no/such/file.h5")
    with pytest.raises(ValueError, match="`classes` should be 1000"):
        nasnet.NASNetLarge(weights="imagenet", classes=5)
    with pytest.raises(ValueError, match="must be static"):
        nasnet.NASNetMobile(weights="imagenet", include_top=False, input_shape=(None, None, 3))
    with pytest.raises(ValueError, match="multiple of 24"):
        nasnet.NASNet(SMALL, penultimate_filters=100, weights=None)
    with pytest.raises(ValueError, match="at least 32x32"):
        nasnet.NASNetMobile(weights=None, input_shape=(31, 31, 3))


def test_channels_first_is_refused():
    tripod.config.set_image_data_format("channels_first")
    try:
        with pytest.raises(ValueError, match="channels_first"):
            nasnet.NASNetMobile(weights=None)
    finally:
        tripod.config.set_image_data_format("channels_last")


def test_imagenet_loads_the_published_file(monkeypatch):
    """weights="imagenet" fetches Keras's `NASNet-mobile-no-top.h5` (cached as
    `nasnet_mobile_no_top.h5`, md5-checked) and loads it by layer name (Keras's legacy layout, as
    published): the outputs are Keras's."""
    folder = harness.keras_reference("NASNetMobile", NOTOP, SMALL)
    fetched = []

    def fetch(url, file_hash, file_name=None):
        fetched.append((url, file_hash, file_name))
        return str(folder / "legacy.h5")

    monkeypatch.setattr(weights_lib, "fetch", fetch)
    model = nasnet.NASNetMobile(weights="imagenet", **NOTOP)
    assert fetched == [
        (
            f"{nasnet.BASE_WEIGHTS_PATH}NASNet-mobile-no-top.h5",
            "1ed92395b5b598bdda52abe5c0dbfd63",
            "nasnet_mobile_no_top.h5",
        )
    ]
    io = np.load(folder / "io.npz")
    harness._assert_close(model.predict(io["x"], verbose=0), io["y"], "published layout")


def test_weight_urls_match_keras():
    harness.import_keras()
    assert nasnet.BASE_WEIGHTS_PATH == (
        "https://storage.googleapis.com/tensorflow/keras-applications/nasnet/"
    )
    keras_nasnet = sys.modules["keras.src.applications.nasnet"]
    assert nasnet.WEIGHTS[(224, True)][1] == keras_nasnet.NASNET_MOBILE_WEIGHT_PATH
    assert nasnet.WEIGHTS[(224, False)][1] == keras_nasnet.NASNET_MOBILE_WEIGHT_PATH_NO_TOP
    assert nasnet.WEIGHTS[(331, True)][1] == keras_nasnet.NASNET_LARGE_WEIGHT_PATH
    assert nasnet.WEIGHTS[(331, False)][1] == keras_nasnet.NASNET_LARGE_WEIGHT_PATH_NO_TOP
