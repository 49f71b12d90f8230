"""`tripod.applications.imagenet_utils` against Keras's: preprocess_input in every mode and data
format (NumPy and tensors), decode_predictions on a class index placed in the cache, the input
shape rules and their messages, correct_pad and validate_activation."""

import hashlib
import importlib
import json
import re
import warnings

import numpy as np
import pytest

import tripod
from tests.applications import harness
from tripod.applications import imagenet_utils

MODES = ["caffe", "tf", "torch"]
SHAPES = {
    "channels_last-4d": ("channels_last", (2, 5, 4, 3)),
    "channels_last-3d": ("channels_last", (5, 4, 3)),
    "channels_first-4d": ("channels_first", (2, 3, 5, 4)),
    "channels_first-3d": ("channels_first", (3, 5, 4)),
}


@pytest.fixture(scope="module")
def keras():
    """Keras 3 (the reference), imported as the harness imports it."""
    return harness.import_keras()


@pytest.fixture(scope="module")
def keras_utils(keras):
    """Keras's `imagenet_utils`, internal helpers included (`obtain_input_shape`, ...)."""
    return importlib.import_module("keras.src.applications.imagenet_utils")


def _images(shape, dtype="float32"):
    return np.random.default_rng(1).uniform(0, 255, shape).astype(dtype)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("layout", list(SHAPES))
def test_preprocess_numpy_matches_keras(keras_utils, layout, mode):
    data_format, shape = SHAPES[layout]
    x = _images(shape)
    expected = keras_utils.preprocess_input(x.copy(), data_format=data_format, mode=mode)
    got = imagenet_utils.preprocess_input(x.copy(), data_format=data_format, mode=mode)
    assert isinstance(got, np.ndarray)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("mode", MODES)
def test_preprocess_numpy_integers_and_overwrite(keras_utils, mode):
    """Integer images come back as float32; a float array is written over, as in Keras."""
    x = _images((2, 4, 4, 3), "uint8")
    got = imagenet_utils.preprocess_input(x, mode=mode)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, keras_utils.preprocess_input(x.copy(), mode=mode))
    floats, keras_floats = _images((2, 4, 4, 3)), _images((2, 4, 4, 3))
    imagenet_utils.preprocess_input(floats, mode=mode)
    keras_utils.preprocess_input(keras_floats, mode=mode)
    np.testing.assert_array_equal(floats, keras_floats)


def test_preprocess_caffe_by_hand():
    """One pixel (R, G, B) = (10, 20, 30) becomes (B - 103.939, G - 116.779, R - 123.68)."""
    x = np.array([[[[10.0, 20.0, 30.0]]]], dtype="float32")
    got = imagenet_utils.preprocess_input(x, data_format="channels_last")
    np.testing.assert_allclose(got[0, 0, 0], [30 - 103.939, 20 - 116.779, 10 - 123.68], rtol=1e-6)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("layout", list(SHAPES))
def test_preprocess_tensor_returns_tensor(keras_utils, layout, mode):
    data_format, shape = SHAPES[layout]
    x = _images(shape)
    tensor = tripod.ops.convert_to_tensor(x)
    got = imagenet_utils.preprocess_input(tensor, data_format=data_format, mode=mode)
    assert type(got) is type(tensor)  # a NumPy array only on the numpy backend
    expected = keras_utils.preprocess_input(x, data_format=data_format, mode=mode)
    np.testing.assert_allclose(tripod.ops.convert_to_numpy(got), expected, rtol=1e-6, atol=1e-5)


def test_preprocess_symbolic_input_in_a_model(keras_utils):
    """On an `Input` (as Keras's docs show) it records ops that a model then runs."""
    inputs = tripod.Input((4, 4, 3), dtype="uint8")
    outputs = imagenet_utils.preprocess_input(inputs, mode="torch")
    assert isinstance(outputs, tripod.KerasTensor) and outputs.dtype == "float32"
    model = tripod.Model(inputs, outputs)
    x = _images((2, 4, 4, 3), "uint8")
    expected = keras_utils.preprocess_input(x.astype("float32"), mode="torch")
    np.testing.assert_allclose(model.predict(x, verbose=0), expected, rtol=1e-6, atol=1e-5)


def test_preprocess_errors():
    x = _images((1, 2, 2, 3))
    with pytest.raises(ValueError, match="Expected mode to be one of `caffe`, `tf` or `torch`"):
        imagenet_utils.preprocess_input(x, mode="keras")
    with pytest.raises(ValueError, match="Received: data_format=NHWC"):
        imagenet_utils.preprocess_input(x, data_format="NHWC")


# -- decode_predictions ---------------------------------------------------------------------------
@pytest.fixture
def class_index(tmp_path, monkeypatch):
    """A 1000-class index placed in a temporary Keras cache with its md5, so no download runs."""
    index = {str(i): [f"n{i:08d}", f"class_{i}"] for i in range(1000)}
    folder = tmp_path / "models"
    folder.mkdir()
    path = folder / "imagenet_class_index.json"
    path.write_text(json.dumps(index))
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.setattr(
        imagenet_utils, "CLASS_INDEX_HASH", hashlib.md5(path.read_bytes()).hexdigest()
    )
    monkeypatch.setattr(imagenet_utils, "CLASS_INDEX", None)
    monkeypatch.setattr(imagenet_utils, "CLASS_INDEX_URL", "http://127.0.0.1:9/index.json")
    return index


def test_decode_predictions_top_k(class_index):
    preds = np.zeros((2, 1000), "float32")
    preds[0, [7, 3, 999]] = [0.5, 0.3, 0.2]
    preds[1, [0, 500]] = [0.1, 0.9]
    got = imagenet_utils.decode_predictions(preds, top=3)
    assert [(a, b) for a, b, _ in got[0]] == [
        ("n00000007", "class_7"),
        ("n00000003", "class_3"),
        ("n00000999", "class_999"),
    ]
    np.testing.assert_allclose([s for *_, s in got[0]], [0.5, 0.3, 0.2])
    assert [name for _, name, _ in got[1][:2]] == ["class_500", "class_0"]
    assert len(imagenet_utils.decode_predictions(tripod.ops.convert_to_tensor(preds))[1]) == 5


def test_decode_predictions_wrong_shape(class_index):
    message = re.escape(
        "`decode_predictions` expects a batch of predictions (i.e. a 2D array of shape "
        "(samples, 1000)). Received array with shape: (2, 10)"
    )
    with pytest.raises(ValueError, match=message):
        imagenet_utils.decode_predictions(np.zeros((2, 10)))
    with pytest.raises(ValueError, match="Received array with shape"):
        imagenet_utils.decode_predictions(np.zeros((1000,)))


# -- obtain_input_shape, correct_pad, validate_activation -----------------------------------------
SHAPE_CASES = {
    "none-top": (None, True, None, "channels_last"),
    "none-notop": (None, False, None, "channels_last"),
    "none-notop-first": (None, False, None, "channels_first"),
    "given": ((64, 80, 3), False, None, "channels_last"),
    "given-first": ((3, 64, 80), True, None, "channels_first"),
    "one-channel": ((64, 64, 1), False, None, "channels_last"),
    "five-channels": ((64, 64, 5), False, None, "channels_last"),
    "imagenet-top-default": (None, True, "imagenet", "channels_last"),
    "imagenet-top-wrong": ((64, 64, 3), True, "imagenet", "channels_last"),
    "imagenet-4-channels": ((64, 64, 4), False, "imagenet", "channels_last"),
    "too-small": ((16, 64, 3), False, None, "channels_last"),
    "too-small-first": ((3, 64, 16), False, None, "channels_first"),
    "two-entries": ((64, 64), False, None, "channels_last"),
    "dynamic-top": ((None, None, 3), True, None, "channels_last"),
    "dynamic-notop": ((None, 64, 3), False, None, "channels_last"),
}


def _outcome(fn, *args, **kwargs):
    """The result, or the error type and message, and the warnings raised on the way."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("ok", tuple(fn(*args, **kwargs)))
        except ValueError as e:
            result = ("error", str(e))
    return result, [str(w.message) for w in caught]


@pytest.mark.parametrize("case", list(SHAPE_CASES))
def test_obtain_input_shape_matches_keras(keras_utils, case):
    input_shape, require_flatten, weights, data_format = SHAPE_CASES[case]
    args = (input_shape, 224, 32, data_format, require_flatten, weights)
    expected = _outcome(keras_utils.obtain_input_shape, *args)
    assert _outcome(imagenet_utils.obtain_input_shape, *args) == expected


@pytest.mark.parametrize("size", [None, 7, 8], ids=["dynamic", "odd", "even"])
@pytest.mark.parametrize("kernel_size", [3, (5, 3)], ids=["k3", "k5x3"])
def test_correct_pad_matches_keras(keras, keras_utils, size, kernel_size):
    expected = keras_utils.correct_pad(keras.Input((size, size, 3)), kernel_size)
    assert imagenet_utils.correct_pad(tripod.Input((size, size, 3)), kernel_size) == expected


def test_validate_activation():
    for activation in ("softmax", None, tripod.activations.softmax):
        imagenet_utils.validate_activation(activation, "imagenet")
    imagenet_utils.validate_activation("relu", None)
    with pytest.raises(ValueError, match="Only `None` and `softmax` activations are allowed"):
        imagenet_utils.validate_activation("relu", "imagenet")
