"""`tripod.applications.weights` and `common`: the `weights=` checks, the offline error (naming
the URL and the cache path), a published file already in the cache used without any network,
weights files given by path (written by tripod and by Keras), and `input_tensor=`."""

import hashlib
import shutil
import urllib.request

import numpy as np
import pytest

import tripod
from tests.applications import harness
from tripod.applications import common, resnet
from tripod.applications import weights as weights_lib

SMALL = (32, 32, 3)
NO_TOP = {"include_top": False, "pooling": "avg"}
UNREACHABLE = "http://127.0.0.1:9/"


@pytest.fixture(autouse=True)
def fresh_names():
    """Automatic layer names start afresh, so builds compare equal to Keras's whatever ran
    before."""
    tripod.utils.clear_session()


@pytest.fixture
def keras_home(tmp_path, monkeypatch):
    """An empty Keras cache; any attempt to reach the network fails the test."""
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))

    def no_network(*args, **kwargs):
        raise AssertionError("the network was used")

    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    return tmp_path


def _sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_validate_arguments(tmp_path):
    for weights in (None, "imagenet", str(tmp_path)):
        weights_lib.validate_arguments(weights, include_top=True, classes=1000)
    weights_lib.validate_arguments("imagenet", include_top=False, classes=7)
    with pytest.raises(ValueError, match=r"either `None` \(random initialization\), 'imagenet'"):
        weights_lib.validate_arguments("imagenet21k", include_top=True, classes=1000)
    with pytest.raises(ValueError, match="Received: weights=/no/such/file.h5"):
        weights_lib.validate_arguments("/no/such/file.h5", include_top=False, classes=1000)
    with pytest.raises(ValueError, match="`classes` should be 1000.  Received classes=7"):
        weights_lib.validate_arguments("imagenet", include_top=True, classes=7)


def test_offline_error_names_url_and_cache_path(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    url = UNREACHABLE + "x.h5"
    with pytest.raises(OSError) as info:
        weights_lib.fetch(url, "0" * 64)
    message = str(info.value)
    assert url in message
    assert str(tmp_path / "models" / "x.h5") in message
    assert not (tmp_path / "models" / "x.h5").exists()


def test_offline_error_from_an_application(tmp_path, monkeypatch):
    """`ResNet50(weights="imagenet")` offline: the error names the published file's URL and where
    to put it by hand."""
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.setattr(resnet, "BASE_WEIGHTS_PATH", UNREACHABLE)
    name = "resnet50_weights_tf_dim_ordering_tf_kernels_notop.h5"
    with pytest.raises(OSError) as info:
        resnet.ResNet50(weights="imagenet", input_shape=SMALL, **NO_TOP)
    assert UNREACHABLE + name in str(info.value)
    assert str(tmp_path / "models" / name) in str(info.value)


def _tiny_model(seed):
    tripod.utils.set_random_seed(seed)
    inputs = tripod.Input((4,))
    outputs = tripod.layers.Dense(3, name="dense")(tripod.layers.Dense(5, name="hidden")(inputs))
    return tripod.Model(inputs, outputs)


def test_cached_file_used_without_network(keras_home):
    """A file already in `<keras home>/models` with the right hash is loaded, no download."""
    source = _tiny_model(1)
    (keras_home / "models").mkdir()
    path = keras_home / "models" / "tiny.weights.h5"
    source.save_weights(str(path))
    target = _tiny_model(2)
    weights_lib.load_weights(target, "imagenet", UNREACHABLE + "tiny.weights.h5", _sha256(path))
    for got, expected in zip(target.weights, source.weights, strict=True):
        np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))


def test_cached_file_under_its_own_name(keras_home):
    """`file_name` names the cached file when it differs from the URL's last part."""
    source = _tiny_model(1)
    (keras_home / "models").mkdir()
    path = keras_home / "models" / "named.weights.h5"
    source.save_weights(str(path))
    target = _tiny_model(2)
    url = UNREACHABLE + "download?id=3"
    weights_lib.load_weights(target, "imagenet", url, _sha256(path), file_name=path.name)
    np.testing.assert_array_equal(np.asarray(target.weights[0]), np.asarray(source.weights[0]))


def test_imagenet_weights_from_the_cache(keras_home, monkeypatch):
    """ResNet50(weights="imagenet") reads the published file name from the cache: a Keras-written
    file in the legacy layout of the published files gives Keras's outputs."""
    folder = harness.keras_reference("ResNet50", NO_TOP, SMALL)
    (keras_home / "models").mkdir()
    cached = keras_home / "models" / "resnet50_weights_tf_dim_ordering_tf_kernels_notop.h5"
    shutil.copyfile(folder / "legacy.h5", cached)
    monkeypatch.setitem(resnet.WEIGHTS_HASHES, "resnet50", ("0" * 64, _sha256(cached)))
    model = resnet.ResNet50(weights="imagenet", **NO_TOP)
    io = np.load(folder / "io.npz")
    np.testing.assert_allclose(model.predict(io["x"], verbose=0), io["y"], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("file", ["model.weights.h5", "legacy.h5"])
def test_weights_path_written_by_keras(file):
    folder = harness.keras_reference("ResNet50", NO_TOP, SMALL)
    model = resnet.ResNet50(weights=str(folder / file), **NO_TOP)
    io = np.load(folder / "io.npz")
    np.testing.assert_allclose(model.predict(io["x"], verbose=0), io["y"], rtol=1e-4, atol=1e-4)


def test_weights_path_written_by_tripod(tmp_path):
    tripod.utils.set_random_seed(3)
    source = resnet.ResNet50(weights=None, input_shape=SMALL, **NO_TOP)
    path = str(tmp_path / "resnet50.weights.h5")
    source.save_weights(path)
    tripod.utils.set_random_seed(4)
    model = resnet.ResNet50(weights=path, input_shape=SMALL, **NO_TOP)
    assert len(model.weights) == len(source.weights)
    for got, expected in zip(model.weights, source.weights, strict=True):
        np.testing.assert_array_equal(np.asarray(got), np.asarray(expected), err_msg=got.path)


def test_input_tensor_is_the_model_input():
    image = tripod.Input(SMALL)
    model = resnet.ResNet50(weights=None, input_tensor=image, **NO_TOP)
    assert model.inputs == [image]
    assert model.layers[0].output is image


def test_input_tensor_keeps_layers_before_it():
    """With a computed `input_tensor`, the model starts from the `Input` it was computed from."""
    raw = tripod.Input((16, 16, 3))
    scaled = tripod.layers.Rescaling(2.0, name="scale")(raw)
    assert common.image_input(scaled, SMALL) is scaled
    assert common.model_inputs(scaled, scaled) == [raw]
    model = resnet.ResNet50(weights=None, input_tensor=scaled, classes=4)
    assert model.inputs == [raw]
    assert "scale" in [layer.name for layer in model.layers]
    assert model.outputs[0].shape == (None, 4)


def test_image_input_and_channel_axis():
    image = common.image_input(None, (8, 8, 3))
    assert image.shape == (None, 8, 8, 3)
    assert common.model_inputs(None, image) is image
    assert common.channel_axis() == 3
