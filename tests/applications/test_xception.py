"""Xception against Keras: parameter count, layer names and outputs with Keras's weights, the
signature, preprocess_input, the argument errors and the published weights files."""

import inspect

import numpy as np
import pytest

import tripod
from tests.applications import harness
from tripod.applications import weights as weights_lib
from tripod.applications import xception

SMALL = (71, 71, 3)
PARITY = {
    "top": {"classes": 7, "classifier_activation": None},
    "avg": {"include_top": False, "pooling": "avg"},
}


@pytest.mark.parametrize(("case", "level"), harness.parity_params(PARITY, {"top"}))
def test_parity_with_keras(case, level):
    harness.check_application(xception, "Xception", SMALL, level, input_shape=SMALL, **PARITY[case])


def test_signature_matches_keras():
    keras = harness.import_keras()
    expected = inspect.signature(keras.applications.Xception)
    assert inspect.signature(xception.Xception) == expected


def test_preprocess_input_matches_keras():
    keras = harness.import_keras()
    x = np.random.default_rng(1).uniform(0, 255, (2, 4, 4, 3)).astype("float32")
    expected = keras.applications.xception.preprocess_input(x.copy())
    np.testing.assert_allclose(xception.preprocess_input(x.copy()), expected, rtol=1e-6)


def test_argument_errors():
    with pytest.raises(ValueError, match="`weights` argument should be either"):
        xception.Xception(weights="/no/such/file.h5")
    with pytest.raises(ValueError, match="`classes` should be 1000"):
        xception.Xception(weights="imagenet", classes=5)
    with pytest.raises(ValueError, match="at least 71x71"):
        xception.Xception(weights=None, include_top=False, input_shape=(70, 71, 3))


class _Fetched(Exception):
    """Raised by the stand-in fetch: the weights file the model asked for."""


@pytest.mark.parametrize(
    ("include_top", "url_constant", "file_hash"),
    [
        (True, "WEIGHTS_PATH", "0a58e3b7378bc2990ea3b43d5981f1f6"),
        (False, "WEIGHTS_PATH_NO_TOP", "b0042744bf5b25fce3cb969f33bebb97"),
    ],
    ids=["top", "notop"],
)
def test_imagenet_weights_file_is_keras_one(include_top, url_constant, file_hash, monkeypatch):
    harness.import_keras()
    from keras.src.applications import xception as keras_xception  # the published URLs

    def fetch(url, file_hash, file_name=None):
        raise _Fetched(url, file_hash)

    monkeypatch.setattr(weights_lib, "fetch", fetch)
    with pytest.raises(_Fetched) as caught:
        xception.Xception(
            weights="imagenet", include_top=include_top, input_shape=None if include_top else SMALL
        )
    assert caught.value.args == (getattr(keras_xception, url_constant), file_hash)


def test_input_tensor_keeps_its_predecessors():
    inputs = tripod.Input((80, 72, 3))
    scaled = tripod.layers.Rescaling(1 / 127.5, offset=-1.0)(inputs)
    model = xception.Xception(weights=None, include_top=False, input_tensor=scaled)
    assert model.inputs[0] is inputs
    assert model.output.shape == (None, 3, 3, 2048)
