"""MobileNet, MobileNetV2, MobileNetV3Small/Large against Keras: parameter counts, layer names and
outputs with Keras's weights (width, depth-multiplier, minimalistic and preprocessing variants),
the signatures, preprocess_input, the argument errors, and the published weights file each set of
arguments asks for (Keras's naming rules by width and input size, the hashes, the warnings)."""

import inspect
import sys

import numpy as np
import pytest

import tripod
from tests.applications import harness
from tripod.applications import mobilenet, mobilenet_v2, mobilenet_v3
from tripod.applications import weights as weights_lib

SMALL = (32, 32, 3)
MODULES = {
    "MobileNet": mobilenet,
    "MobileNetV2": mobilenet_v2,
    "MobileNetV3Small": mobilenet_v3,
    "MobileNetV3Large": mobilenet_v3,
}
TOP = {"input_shape": SMALL, "classes": 5, "classifier_activation": None}
NO_TOP = {"input_shape": SMALL, "include_top": False}
PARITY = {
    "v1": ("MobileNet", TOP),
    "v1-alpha0.5-avg": ("MobileNet", {**NO_TOP, "alpha": 0.5, "pooling": "avg"}),
    "v1-depth2-max": (
        "MobileNet",
        {**NO_TOP, "alpha": 0.25, "depth_multiplier": 2, "pooling": "max"},
    ),
    "v2": ("MobileNetV2", TOP),
    "v2-alpha0.35-avg": ("MobileNetV2", {**NO_TOP, "alpha": 0.35, "pooling": "avg"}),
    "v2-alpha1.3-nopool": ("MobileNetV2", {**NO_TOP, "alpha": 1.3}),
    "v3small": ("MobileNetV3Small", TOP),
    "v3small-alpha0.75-avg": ("MobileNetV3Small", {**NO_TOP, "alpha": 0.75, "pooling": "avg"}),
    "v3small-minimal-noprep": (
        "MobileNetV3Small",
        {**TOP, "minimalistic": True, "include_preprocessing": False},
    ),
    "v3large-alpha1.25-nodrop": ("MobileNetV3Large", {**TOP, "alpha": 1.25, "dropout_rate": 0.0}),
    "v3large-minimal-max": ("MobileNetV3Large", {**NO_TOP, "minimalistic": True, "pooling": "max"}),
}
#: compared in full in the fast tier: each architecture once
PRIMARY = {"v1", "v2", "v3small", "v3large-alpha1.25-nodrop"}


@pytest.fixture
def fresh_names():
    """Automatic layer names (`input_layer`, `re_lu`, `activation`, ...) start afresh in tripod
    and in Keras, so they compare equal whichever models were built before."""
    tripod.utils.clear_session()
    if "keras" in sys.modules:
        sys.modules["keras"].backend.clear_session()


@pytest.mark.usefixtures("fresh_names")
@pytest.mark.parametrize(("case", "level"), harness.parity_params(PARITY, PRIMARY))
def test_parity_with_keras(case, level):
    name, kwargs = PARITY[case]
    harness.check_application(MODULES[name], name, SMALL, level, **kwargs)


@pytest.mark.parametrize("name", list(MODULES))
def test_signature_matches_keras(name):
    keras = harness.import_keras()
    expected = inspect.signature(getattr(keras.applications, name))
    assert inspect.signature(getattr(MODULES[name], name)) == expected


@pytest.mark.parametrize(
    "module", [mobilenet, mobilenet_v2, mobilenet_v3], ids=lambda m: m.__name__
)
def test_preprocess_input_matches_keras(module):
    keras = harness.import_keras()
    x = np.random.default_rng(1).uniform(0, 255, (2, 4, 4, 3)).astype("float32")
    keras_module = getattr(keras.applications, module.__name__.rsplit(".", 1)[1])
    expected = keras_module.preprocess_input(x.copy())
    got = module.preprocess_input(x.copy())
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_preprocess_input_scales_to_minus_one_one():
    x = np.array([[[[0.0, 127.5, 255.0]]]], "float32")
    np.testing.assert_allclose(mobilenet_v2.preprocess_input(x), [[[[-1.0, 0.0, 1.0]]]])


@pytest.mark.parametrize("name", list(MODULES))
def test_argument_errors(name):
    build = getattr(MODULES[name], name)
    with pytest.raises(ValueError, match="`weights` argument should be either"):
        build(weights="/no/such/file.h5")
    with pytest.raises(ValueError, match="`classes` should be 1000"):
        build(weights="imagenet", classes=5)
    with pytest.raises(ValueError, match="at least 32x32"):
        build(weights=None, include_top=False, input_shape=(16, 16, 3))


@pytest.mark.parametrize(
    ("name", "kwargs", "message"),
    [
        ("MobileNet", {"alpha": 0.3}, "alpha can be one of"),
        ("MobileNet", {"depth_multiplier": 2}, "depth multiplier must be 1"),
        ("MobileNetV2", {"alpha": 0.6}, "alpha must be one of"),
        ("MobileNetV3Small", {"alpha": 0.5}, "alpha can be one of"),
        ("MobileNetV3Large", {"alpha": 0.75, "minimalistic": True}, "alpha can be one of"),
    ],
    ids=["v1-alpha", "v1-depth", "v2-alpha", "v3small-alpha", "v3large-minimal-alpha"],
)
def test_widths_without_imagenet_weights_are_refused(name, kwargs, message):
    with pytest.raises(ValueError, match=message):
        getattr(MODULES[name], name)(weights="imagenet", include_top=False, **kwargs)


def test_imagenet_top_needs_the_default_input_shape():
    with pytest.raises(ValueError, match=r"`input_shape` should be \(224, 224, 3\)"):
        mobilenet.MobileNet(weights="imagenet", input_shape=(100, 100, 3))


class _Fetched(Exception):
    """Raised by the stand-in fetch: the weights file the model asked for."""


@pytest.fixture
def requested(monkeypatch):
    """The (URL, hash) the next application asks `weights.fetch` for, without any download."""

    def fetch(url, file_hash, file_name=None):
        raise _Fetched(url, file_hash)

    monkeypatch.setattr(weights_lib, "fetch", fetch)

    def build(function, **kwargs):
        with pytest.raises(_Fetched) as caught:
            function(weights="imagenet", **kwargs)
        return caught.value.args

    return build


MN = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet/"
V2 = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet_v2/"
V2_STEM = V2 + "mobilenet_v2_weights_tf_dim_ordering_tf_kernels_"
V3 = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet_v3/"
FILES = {
    "v1-top": (mobilenet.MobileNet, {}, MN + "mobilenet_1_0_224_tf.h5", None),
    "v1-top-128": (
        mobilenet.MobileNet,
        {"input_shape": (128, 128, 3)},
        MN + "mobilenet_1_0_128_tf.h5",
        None,
    ),
    "v1-0.75-128": (
        mobilenet.MobileNet,
        {"alpha": 0.75, "include_top": False, "input_shape": (128, 128, 3)},
        MN + "mobilenet_7_5_128_tf_no_top.h5",
        None,
    ),
    "v1-0.25-160": (
        mobilenet.MobileNet,
        {"alpha": 0.25, "include_top": False, "input_shape": (160, 160, 3)},
        MN + "mobilenet_2_5_160_tf_no_top.h5",
        None,
    ),
    "v2-top": (mobilenet_v2.MobileNetV2, {}, V2_STEM + "1.0_224.h5", None),
    "v2-1.4-96": (
        mobilenet_v2.MobileNetV2,
        {"alpha": 1.4, "include_top": False, "input_shape": (96, 96, 3)},
        V2_STEM + "1.4_96_no_top.h5",
        None,
    ),
    "v2-0.35-192": (
        mobilenet_v2.MobileNetV2,
        {"alpha": 0.35, "include_top": False, "input_shape": (192, 192, 3)},
        V2_STEM + "0.35_192_no_top.h5",
        None,
    ),
    "v3small-top": (
        mobilenet_v3.MobileNetV3Small,
        {"input_shape": (224, 224, 3)},
        V3 + "weights_mobilenet_v3_small_224_1.0_float.h5",
        "8768d4c2e7dee89b9d02b2d03d65d862",
    ),
    "v3small-minimal-notop": (
        mobilenet_v3.MobileNetV3Small,
        {"minimalistic": True, "include_top": False, "input_shape": (224, 224, 3)},
        V3 + "weights_mobilenet_v3_small_minimalistic_224_1.0_float_no_top_v2.h5",
        "cde8136e733e811080d9fcd8a252f7e4",
    ),
    "v3large-0.75-notop": (
        mobilenet_v3.MobileNetV3Large,
        {"alpha": 0.75, "include_top": False, "input_shape": (224, 224, 3)},
        V3 + "weights_mobilenet_v3_large_224_0.75_float_no_top_v2.h5",
        "40af19a13ebea4e2ee0c676887f69a2e",
    ),
}


@pytest.mark.parametrize("case", list(FILES))
def test_imagenet_weights_file_follows_keras_naming(case, requested):
    function, kwargs, url, file_hash = FILES[case]
    assert requested(function, **kwargs) == (url, file_hash)


@pytest.mark.parametrize(
    ("function", "input_shape", "url"),
    [
        (mobilenet.MobileNet, (100, 100, 3), MN + "mobilenet_5_0_224_tf_no_top.h5"),
        (mobilenet.MobileNet, (128, 160, 3), MN + "mobilenet_5_0_224_tf_no_top.h5"),
        (mobilenet_v2.MobileNetV2, (100, 100, 3), V2_STEM + "0.5_224_no_top.h5"),
    ],
    ids=["v1-100", "v1-nonsquare", "v2-100"],
)
def test_sizes_without_weights_fall_back_to_224_with_a_warning(
    function, input_shape, url, requested
):
    with pytest.warns(UserWarning, match=r"Weights for input shape \(224, 224\)"):
        assert requested(function, alpha=0.5, include_top=False, input_shape=input_shape)[0] == url


def test_v3_warns_on_inputs_other_than_224(requested):
    with pytest.warns(UserWarning, match="`rows` is not 224"):
        requested(mobilenet_v3.MobileNetV3Small, include_top=False, input_shape=(96, 96, 3))


def test_default_names_carry_width_and_size():
    assert mobilenet.MobileNet(weights=None, alpha=0.5, input_shape=(160, 160, 3)).name == (
        "mobilenet_0.50_160"
    )
    model = mobilenet_v2.MobileNetV2(weights=None, include_top=False)
    assert model.name == "mobilenetv2_1.00_None"
    assert mobilenet_v3.MobileNetV3Small(weights=None, include_top=False).name == "MobileNetV3Small"


def test_input_tensor_keeps_its_predecessors():
    inputs = tripod.Input((48, 40, 3))
    scaled = tripod.layers.Rescaling(2.0)(inputs)
    model = mobilenet_v2.MobileNetV2(weights=None, include_top=False, input_tensor=scaled)
    assert model.inputs[0] is inputs
    assert model.output.shape == (None, 2, 2, 1280)
    v3 = mobilenet_v3.MobileNetV3Small(weights=None, include_top=False, input_tensor=scaled)
    assert v3.inputs[0] is inputs


def test_input_tensor_must_agree_with_input_shape():
    tensor = tripod.Input((32, 40, 3))
    with pytest.raises(ValueError, match="must equal input_shape"):
        mobilenet_v2.MobileNetV2(weights=None, input_shape=(32, 32, 3), input_tensor=tensor)
    with pytest.raises(ValueError, match="not a Keras tensor"):
        mobilenet_v3.MobileNetV3Large(
            weights=None, input_shape=SMALL, input_tensor=np.zeros((1, *SMALL), "float32")
        )
