"""VGG16 and VGG19 against Keras: parameter counts, layer names and outputs with Keras's weights
(both file layouts), the signatures, preprocess_input, the argument errors and the published
weights files asked for."""

import importlib
import inspect
import sys

import numpy as np
import pytest

import tripod
from tests.applications import harness
from tripod.applications import common, imagenet_utils, vgg16, vgg19

SMALL = (32, 32, 3)
MODULES = {"VGG16": vgg16, "VGG19": vgg19}
PARITY = {
    "vgg16-top": ("VGG16", {"input_shape": SMALL, "classes": 7}),
    "vgg16-max": ("VGG16", {"include_top": False, "pooling": "max"}),
    "vgg19-top": ("VGG19", {"input_shape": SMALL, "classes": 7, "classifier_activation": None}),
    "vgg19-avg": ("VGG19", {"include_top": False, "pooling": "avg"}),
}


@pytest.fixture(autouse=True)
def fresh_names():
    """Automatic layer names (`input_layer`, `global_average_pooling2d`, ...) start afresh in
    tripod and in Keras, so they compare equal whichever models were built before."""
    tripod.utils.clear_session()
    if "keras" in sys.modules:
        sys.modules["keras"].backend.clear_session()


@pytest.fixture(scope="module")
def keras():
    """Keras 3 (the reference), imported as the harness imports it."""
    return harness.import_keras()


@pytest.mark.parametrize(("case", "level"), harness.parity_params(PARITY, {"vgg16-max"}))
def test_parity_with_keras(case, level):
    name, kwargs = PARITY[case]
    harness.check_application(MODULES[name], name, SMALL, level, **kwargs)


@pytest.mark.parametrize("name", list(MODULES))
def test_signatures_and_preprocessing_match_keras(keras, name):
    ours, theirs = MODULES[name], getattr(keras.applications, name.lower())
    for fn in (name, "preprocess_input", "decode_predictions"):
        assert inspect.signature(getattr(ours, fn)) == inspect.signature(getattr(theirs, fn))
    x = np.random.default_rng(0).uniform(0, 255, (2, 8, 8, 3)).astype("float32")
    np.testing.assert_array_equal(ours.preprocess_input(x.copy()), theirs.preprocess_input(x))


def test_top_follows_input_size():
    """The classifier's first Dense reads the flattened last block: 512 * (size / 32) ** 2."""
    model = vgg16.VGG16(weights=None, input_shape=(64, 96, 3), classes=3)
    assert model.get_layer("fc1").kernel.shape == (512 * 2 * 3, 4096)
    assert model.outputs[0].shape == (None, 3)


def test_argument_errors():
    with pytest.raises(ValueError, match="The `weights` argument should be either"):
        vgg16.VGG16(weights="places365")
    with pytest.raises(ValueError, match="`classes` should be 1000.  Received classes=7"):
        vgg19.VGG19(weights="imagenet", classes=7)
    with pytest.raises(ValueError, match="If `include_top` is True, you should specify a static"):
        vgg16.VGG16(weights=None, input_shape=(None, None, 3))
    with pytest.raises(ValueError, match="Input size must be at least 32x32"):
        vgg19.VGG19(weights=None, include_top=False, input_shape=(31, 64, 3))


# Keras 3.15's md5 of each published file: (with the top, without it)
KERAS_HASHES = {
    "VGG16": ("64373286793e3c8b2b4e3219cbf3544b", "6d6bbae143d832006294945121d1f1fc"),
    "VGG19": ("cbe5617147190e668d6c5d5026f83318", "253f8cb515780f3b799900260a226db6"),
}


@pytest.mark.parametrize("name", list(MODULES))
@pytest.mark.parametrize("include_top", [True, False], ids=["top", "notop"])
def test_published_weights_file(monkeypatch, name, include_top):
    """weights="imagenet" asks for Keras's URL (from Keras's module) and md5."""
    asked = []
    monkeypatch.setattr(vgg16, "load_weights", lambda *args: asked.append(args[1:]))
    # only the file choice is under test: build at 32x32 (ImageNet weights with the top would
    # need 224x224 and 1000 classes)
    monkeypatch.setattr(common, "validate_arguments", lambda *args: None)
    monkeypatch.setattr(imagenet_utils, "obtain_input_shape", lambda *args: SMALL)
    getattr(MODULES[name], name)(weights="imagenet", include_top=include_top, classes=7)
    source = importlib.import_module(f"keras.src.applications.{name.lower()}")
    url = source.WEIGHTS_PATH if include_top else source.WEIGHTS_PATH_NO_TOP
    assert asked == [("imagenet", url, KERAS_HASHES[name][0 if include_top else 1])]
