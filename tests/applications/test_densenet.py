"""DenseNet121/169/201 against Keras: parameter counts, layer names and outputs with Keras's
weights, the signatures, preprocess_input, the argument errors and the published weights files."""

import inspect

import numpy as np
import pytest

import tripod
from tests.applications import harness
from tripod.applications import densenet
from tripod.applications import weights as weights_lib

SMALL = (32, 32, 3)
NAMES = ["DenseNet121", "DenseNet169", "DenseNet201"]
PARITY = {
    "121-top": ("DenseNet121", {"classes": 7, "classifier_activation": None}),
    "169-avg": ("DenseNet169", {"include_top": False, "pooling": "avg"}),
    "201-max": ("DenseNet201", {"include_top": False, "pooling": "max"}),
}


@pytest.mark.parametrize(("case", "level"), harness.parity_params(PARITY, {"121-top"}))
def test_parity_with_keras(case, level):
    name, kwargs = PARITY[case]
    harness.check_application(densenet, name, SMALL, level, input_shape=SMALL, **kwargs)


@pytest.mark.parametrize("name", NAMES)
def test_signature_matches_keras(name):
    keras = harness.import_keras()
    expected = inspect.signature(getattr(keras.applications, name))
    assert inspect.signature(getattr(densenet, name)) == expected


def test_preprocess_input_matches_keras():
    keras = harness.import_keras()
    x = np.random.default_rng(1).uniform(0, 255, (2, 4, 4, 3)).astype("float32")
    expected = keras.applications.densenet.preprocess_input(x.copy())
    np.testing.assert_allclose(densenet.preprocess_input(x.copy()), expected, rtol=1e-6)


def test_preprocess_input_is_torch_mode():
    x = np.array([[[[0.485 * 255, 0.456 * 255, 0.406 * 255]]]], "float32")
    np.testing.assert_allclose(densenet.preprocess_input(x), np.zeros((1, 1, 1, 3)), atol=1e-6)


def test_argument_errors():
    with pytest.raises(ValueError, match="`weights` argument should be either"):
        densenet.DenseNet121(weights="/no/such/file.h5")
    with pytest.raises(ValueError, match="`classes` should be 1000"):
        densenet.DenseNet169(weights="imagenet", classes=5)
    with pytest.raises(ValueError, match="at least 32x32"):
        densenet.DenseNet201(weights=None, include_top=False, input_shape=(31, 32, 3))


def test_channels_first_is_refused():
    tripod.config.set_image_data_format("channels_first")
    try:
        with pytest.raises(ValueError, match="does not support the `channels_first`"):
            densenet.DenseNet121(weights=None)
    finally:
        tripod.config.set_image_data_format("channels_last")


class _Fetched(Exception):
    """Raised by the stand-in fetch: the weights file the model asked for."""


def _requested(monkeypatch, build, **kwargs):
    """The (URL, hash) `build(weights="imagenet", **kwargs)` asks `weights.fetch` for."""

    def fetch(url, file_hash, file_name=None):
        raise _Fetched(url, file_hash)

    monkeypatch.setattr(weights_lib, "fetch", fetch)
    with pytest.raises(_Fetched) as caught:
        build(weights="imagenet", **kwargs)
    return caught.value.args


FILES = {
    "121-top": ("DenseNet121", True, "DENSENET121_WEIGHT_PATH", "9d60b8095a5708f2dcce2bca79d332c7"),
    "121-notop": (
        "DenseNet121",
        False,
        "DENSENET121_WEIGHT_PATH_NO_TOP",
        "30ee3e1110167f948a6b9946edeeb738",
    ),
    "169-top": ("DenseNet169", True, "DENSENET169_WEIGHT_PATH", "d699b8f76981ab1b30698df4c175e90b"),
    "169-notop": (
        "DenseNet169",
        False,
        "DENSENET169_WEIGHT_PATH_NO_TOP",
        "b8c4d4c20dd625c148057b9ff1c1176b",
    ),
    "201-top": ("DenseNet201", True, "DENSENET201_WEIGHT_PATH", "1ceb130c1ea1b78c3bf6114dbdfd8807"),
    "201-notop": (
        "DenseNet201",
        False,
        "DENSENET201_WEIGHT_PATH_NO_TOP",
        "c13680b51ded0fb44dff2d8f86ac8bb1",
    ),
}


@pytest.mark.parametrize("case", list(FILES))
def test_imagenet_weights_file_is_keras_one(case, monkeypatch):
    name, include_top, keras_constant, file_hash = FILES[case]
    harness.import_keras()
    from keras.src.applications import densenet as keras_densenet  # the published URLs

    shape = None if include_top else SMALL
    got = _requested(
        monkeypatch, getattr(densenet, name), include_top=include_top, input_shape=shape
    )
    assert got == (getattr(keras_densenet, keras_constant), file_hash)
