"""ResNet50/101/152 and ResNet50V2/101V2/152V2 against Keras: parameter counts, layer names and
outputs with Keras's weights (both file layouts), the signatures, preprocess_input, the
`resnet50` alias module, the argument errors and the published weights files asked for."""

import inspect
import sys

import numpy as np
import pytest

import tripod
from tests.applications import harness
from tripod.applications import resnet, resnet50, resnet_v2

SMALL = (32, 32, 3)
TOP = {"input_shape": SMALL, "classes": 7, "classifier_activation": None}
MODULES = {
    "ResNet50": resnet,
    "ResNet101": resnet,
    "ResNet152": resnet,
    "ResNet50V2": resnet_v2,
    "ResNet101V2": resnet_v2,
    "ResNet152V2": resnet_v2,
}
PARITY = {
    "resnet50-top": ("ResNet50", TOP),
    # the reference test_weights.py loads as the published no-top file: one cache entry for both
    "resnet50-avg": ("ResNet50", {"include_top": False, "pooling": "avg"}),
    "resnet101-avg": ("ResNet101", {"include_top": False, "pooling": "avg"}),
    "resnet152-max": ("ResNet152", {"include_top": False, "pooling": "max"}),
    "resnet50v2-top": ("ResNet50V2", TOP),
    "resnet101v2-nopool": ("ResNet101V2", {"include_top": False, "input_shape": SMALL}),
    "resnet152v2-avg": ("ResNet152V2", {"include_top": False, "pooling": "avg"}),
}


@pytest.fixture(autouse=True)
def fresh_names():
    """Automatic layer names (`input_layer`, `max_pooling2d`, ...) start afresh in tripod and in
    Keras, so they compare equal whichever models were built before."""
    tripod.utils.clear_session()
    if "keras" in sys.modules:
        sys.modules["keras"].backend.clear_session()


@pytest.fixture(scope="module")
def keras():
    """Keras 3 (the reference), imported as the harness imports it."""
    return harness.import_keras()


@pytest.mark.parametrize(
    ("case", "level"), harness.parity_params(PARITY, {"resnet50-avg", "resnet50v2-top"})
)
def test_parity_with_keras(case, level):
    name, kwargs = PARITY[case]
    harness.check_application(MODULES[name], name, SMALL, level, **kwargs)


@pytest.mark.parametrize("name", list(MODULES))
def test_signature_matches_keras(keras, name):
    expected = inspect.signature(getattr(keras.applications, name))
    assert inspect.signature(getattr(MODULES[name], name)) == expected


@pytest.mark.parametrize("module", ["resnet", "resnet50", "resnet_v2"])
def test_module_functions_match_keras(keras, module):
    ours, theirs = sys.modules[f"tripod.applications.{module}"], getattr(keras.applications, module)
    for fn in ("preprocess_input", "decode_predictions"):
        assert inspect.signature(getattr(ours, fn)) == inspect.signature(getattr(theirs, fn))
    x = np.random.default_rng(0).uniform(0, 255, (2, 8, 8, 3)).astype("float32")
    expected = theirs.preprocess_input(x.copy())
    np.testing.assert_allclose(ours.preprocess_input(x.copy()), expected, rtol=1e-6, atol=1e-6)


def test_resnet50_module_is_an_alias(keras):
    public = {name for name in dir(keras.applications.resnet50) if not name.startswith("_")}
    assert public == set(resnet50.__all__)
    assert resnet50.ResNet50 is resnet.ResNet50
    assert resnet50.preprocess_input is resnet.preprocess_input


def test_preprocessing_modes():
    """ResNet (v1) expects "caffe" preprocessing (BGR, mean-centred), ResNetV2 "tf" ([-1, 1])."""
    pixel = np.array([[[[0.0, 127.5, 255.0]]]], "float32")
    np.testing.assert_allclose(resnet_v2.preprocess_input(pixel.copy())[0, 0, 0], [-1, 0, 1])
    expected = [255 - 103.939, 127.5 - 116.779, 0 - 123.68]
    np.testing.assert_allclose(resnet.preprocess_input(pixel.copy())[0, 0, 0], expected, rtol=1e-6)


def test_argument_errors():
    with pytest.raises(ValueError, match="The `weights` argument should be either"):
        resnet.ResNet50(weights="imagenet_v2")
    with pytest.raises(ValueError, match="`classes` should be 1000.  Received classes=7"):
        resnet_v2.ResNet50V2(weights="imagenet", classes=7)
    with pytest.raises(ValueError, match="Only `None` and `softmax` activations are allowed"):
        resnet.ResNet50(weights="imagenet", classifier_activation="relu")
    with pytest.raises(ValueError, match=r"`input_shape` should be \(224, 224, 3\)"):
        resnet.ResNet101(weights="imagenet", input_shape=SMALL)
    with pytest.raises(ValueError, match="Input size must be at least 32x32"):
        resnet.ResNet50(weights=None, include_top=False, input_shape=(16, 16, 3))


@pytest.mark.parametrize("name", ["ResNet50", "ResNet50V2"])
@pytest.mark.parametrize("include_top", [True, False], ids=["top", "notop"])
def test_published_weights_file(monkeypatch, name, include_top):
    """weights="imagenet" asks for Keras's file name, URL and md5 (read off Keras 3.15's
    `keras/src/applications/resnet.py`)."""
    asked = []
    monkeypatch.setattr(resnet, "load_weights", lambda *args: asked.append(args[1:]))
    kwargs = {} if include_top else {"include_top": False, "input_shape": SMALL}
    getattr(MODULES[name], name)(weights="imagenet", **kwargs)
    file = f"{name.lower()}_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    url = "https://storage.googleapis.com/tensorflow/keras-applications/resnet/" + file
    md5 = resnet.WEIGHTS_HASHES[name.lower()][0 if include_top else 1]
    assert asked == [("imagenet", url, md5)]
    assert len(md5) == 32


def test_hashes_match_keras():
    keras_resnet = pytest.importorskip("keras.src.applications.resnet")
    for key, hashes in resnet.WEIGHTS_HASHES.items():
        assert keras_resnet.WEIGHTS_HASHES[key] == hashes
