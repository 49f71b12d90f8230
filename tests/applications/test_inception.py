"""InceptionV3 and InceptionResNetV2 against Keras: parameter counts, layer names and outputs with
Keras's weights, the signatures, preprocess_input, the argument errors, the published weights
files, and the `CustomScaleLayer` residual layer (its maths, config and Keras-saved files)."""

import inspect

import numpy as np
import pytest

import tripod
from tests.applications import harness
from tripod.applications import inception_resnet_v2, inception_v3
from tripod.applications import weights as weights_lib

SMALL = (75, 75, 3)
MODULES = {"InceptionV3": inception_v3, "InceptionResNetV2": inception_resnet_v2}
TOP = {"input_shape": SMALL, "classes": 7, "classifier_activation": None}
NO_TOP = {"input_shape": SMALL, "include_top": False, "pooling": "avg"}
PARITY = {
    "v3-top": ("InceptionV3", TOP),
    "v3-avg": ("InceptionV3", NO_TOP),
    "resnet-v2-top": ("InceptionResNetV2", TOP),
    "resnet-v2-avg": ("InceptionResNetV2", NO_TOP),
}


@pytest.mark.parametrize(
    ("case", "level"), harness.parity_params(PARITY, {"v3-top", "resnet-v2-top"})
)
def test_parity_with_keras(case, level):
    name, kwargs = PARITY[case]
    harness.check_application(MODULES[name], name, SMALL, level, **kwargs)


@pytest.mark.parametrize("name", list(MODULES))
def test_signature_matches_keras(name):
    keras = harness.import_keras()
    expected = inspect.signature(getattr(keras.applications, name))
    assert inspect.signature(getattr(MODULES[name], name)) == expected


@pytest.mark.parametrize("name", list(MODULES))
def test_preprocess_input_matches_keras(name):
    keras = harness.import_keras()
    module = MODULES[name]
    x = np.random.default_rng(1).uniform(0, 255, (2, 4, 4, 3)).astype("float32")
    keras_module = getattr(keras.applications, module.__name__.rsplit(".", 1)[1])
    expected = keras_module.preprocess_input(x.copy())
    np.testing.assert_allclose(module.preprocess_input(x.copy()), expected, rtol=1e-6)
    np.testing.assert_allclose(
        module.preprocess_input(np.array([0.0, 127.5, 255.0], "float32")), [-1.0, 0.0, 1.0]
    )


@pytest.mark.parametrize("name", list(MODULES))
def test_argument_errors(name):
    build = getattr(MODULES[name], name)
    with pytest.raises(ValueError, match="`weights` argument should be either"):
        build(weights="/no/such/file.h5")
    with pytest.raises(ValueError, match="`classes` should be 1000"):
        build(weights="imagenet", classes=5)
    with pytest.raises(ValueError, match="at least 75x75"):
        build(weights=None, include_top=False, input_shape=(74, 80, 3))


class _Fetched(Exception):
    """Raised by the stand-in fetch: the weights file the model asked for."""


@pytest.mark.parametrize("include_top", [True, False], ids=["top", "notop"])
@pytest.mark.parametrize("name", list(MODULES))
def test_imagenet_weights_file_is_keras_one(name, include_top, monkeypatch):
    stem = {
        "InceptionV3": "inception_v3/inception_v3_weights_tf_dim_ordering_tf_kernels",
        "InceptionResNetV2": (
            "inception_resnet_v2/inception_resnet_v2_weights_tf_dim_ordering_tf_kernels"
        ),
    }[name]
    file_hash = {
        ("InceptionV3", True): "9a0d58056eeedaa3f26cb7ebd46da564",
        ("InceptionV3", False): "bcbd6486424b2319ff4ef7d526e38f63",
        ("InceptionResNetV2", True): "e693bd0210a403b3192acc6073ad2e96",
        ("InceptionResNetV2", False): "d19885ff4a710c122648d3b5c3b684e4",
    }[name, include_top]

    def fetch(url, file_hash, file_name=None):
        raise _Fetched(url, file_hash)

    monkeypatch.setattr(weights_lib, "fetch", fetch)
    with pytest.raises(_Fetched) as caught:
        getattr(MODULES[name], name)(
            weights="imagenet", include_top=include_top, input_shape=None if include_top else SMALL
        )
    url = f"https://storage.googleapis.com/tensorflow/keras-applications/{stem}"
    assert caught.value.args == (url + ("" if include_top else "_notop") + ".h5", file_hash)


def test_custom_scale_layer_adds_the_scaled_residual():
    layer = inception_resnet_v2.CustomScaleLayer(0.17, name="scale")
    shortcut = np.arange(6, dtype="float32").reshape(1, 2, 3)
    residual = np.full((1, 2, 3), 2.0, "float32")
    got = tripod.ops.convert_to_numpy(layer([shortcut, residual]))
    np.testing.assert_allclose(got, shortcut + 0.34, rtol=1e-6)
    restored = inception_resnet_v2.CustomScaleLayer.from_config(layer.get_config())
    assert (restored.name, restored.scale) == ("scale", 0.17)


def test_custom_scale_layer_config_reads_in_keras():
    keras = harness.import_keras()
    from keras.src.applications.inception_resnet_v2 import CustomScaleLayer

    expected = keras.saving.serialize_keras_object(CustomScaleLayer(0.2, name="s"))
    got = tripod.saving.serialize_keras_object(inception_resnet_v2.CustomScaleLayer(0.2, name="s"))
    assert (got["module"], got["class_name"]) == (expected["module"], expected["class_name"])
    restored = keras.saving.deserialize_keras_object(got)
    assert isinstance(restored, CustomScaleLayer)
    assert (restored.name, restored.scale) == ("s", 0.2)


def test_keras_saved_model_with_custom_scale_layer_loads(tmp_path):
    keras = harness.import_keras()
    from keras.src.applications.inception_resnet_v2 import CustomScaleLayer

    inputs = keras.Input((4,))
    branch = keras.layers.Dense(4, name="branch")(inputs)
    outputs = CustomScaleLayer(0.5, name="residual")([inputs, branch])
    path = tmp_path / "scaled.keras"
    keras.Model(inputs, outputs).save(path)
    x = np.random.default_rng(2).normal(size=(3, 4)).astype("float32")
    expected = np.asarray(keras.saving.load_model(path)(x))
    model = tripod.saving.load_model(path)
    assert isinstance(model.get_layer("residual"), inception_resnet_v2.CustomScaleLayer)
    # Outputs near zero come from cancellation (x + 0.5 * branch): compare on the outputs' scale.
    np.testing.assert_allclose(
        np.asarray(model.predict(x, verbose=0)), expected, rtol=1e-5, atol=1e-6
    )


def test_unknown_block_type_is_refused():
    with pytest.raises(ValueError, match="Unknown Inception-ResNet block type"):
        inception_resnet_v2.inception_resnet_block(tripod.Input((8, 8, 4)), 0.1, "block9", 1)
