"""int8 quantization of Dense, EinsumDense and Embedding: outputs against a NumPy reference of the
same abs-max quantization, Keras's variable layout, files moving between Keras and tripod both
ways with matching outputs, `.keras` round trips, the training path and `Model.quantize`."""

import warnings

import numpy as np
import pytest

import tripod
from tests.keras_import import import_keras
from tripod import layers
from tripod.backends import config

RNG = np.random.default_rng(1)
TRAINS = config.backend() != "numpy"


def _abs_max(x, axes):
    """NumPy reference: (int8 values, scale) by absolute maximum over `axes`, kept dims."""
    scale = (127.0 / (np.abs(x).max(axis=axes, keepdims=True) + 1e-7)).astype("float32")
    return np.clip(np.round(x * scale), -127, 127), scale


def _to_numpy(x):
    return tripod.ops.convert_to_numpy(x)


def test_dense_int8_matches_numpy_reference():
    layer = layers.Dense(5, bias_initializer="glorot_uniform")
    x = RNG.normal(size=(4, 6)).astype("float32")
    layer.build((None, 6))
    w, b = layer.kernel.numpy(), layer.bias.numpy()
    layer.quantize("int8")
    wq, ws = _abs_max(w, 0)
    xq, xs = _abs_max(x, -1)
    expected = (xq @ wq) / (ws * xs) + b
    np.testing.assert_allclose(_to_numpy(layer(x)), expected, rtol=1e-5, atol=1e-5)
    assert layer.kernel.dtype == "int8" and tuple(layer.kernel_scale.shape) == (5,)
    np.testing.assert_array_equal(layer.kernel.numpy(), wq)
    assert layer.dtype_policy.name == "int8_from_float32"


@pytest.mark.parametrize(
    "equation, output_shape, input_shape, bias_axes",
    [
        ("ab,bc->ac", 4, (3, 5), "c"),
        ("abc,cde->abde", (2, 3, 4), (2, 2, 5), "e"),
        ("...b,bc->...c", 3, (2, 3, 4), None),
        ("abc,cd->abd", (2, 3), (2, 2, 6), "d"),
        ("abcd,cde->abe", (3, 4), (2, 3, 2, 5), None),
    ],
)
def test_einsum_dense_int8_matches_numpy_reference(equation, output_shape, input_shape, bias_axes):
    layer = layers.EinsumDense(equation, output_shape, bias_axes=bias_axes)
    x = RNG.normal(size=input_shape).astype("float32")
    layer.build(input_shape)
    w = layer.kernel.numpy()
    bias = layer.bias.numpy() if layer.bias is not None else 0.0
    layer.quantize("int8")
    spec_in, rest = equation.replace("...", "").split(",")
    spec_w, spec_out = rest.split("->")
    w_axes = tuple(i for i, c in enumerate(spec_w) if c not in spec_out)
    x_axes = tuple(
        len(input_shape) - len(spec_in) + i for i, c in enumerate(spec_in) if c not in spec_out
    )
    wq, ws = _abs_max(w, w_axes)
    xq, xs = _abs_max(x, x_axes)
    expected = np.einsum(equation, xq / xs, wq / ws) + bias
    np.testing.assert_allclose(_to_numpy(layer(x)), expected, rtol=1e-5, atol=1e-5)


def test_embedding_int8_matches_numpy_reference():
    layer = layers.Embedding(9, 4)
    ids = np.array([[0, 3, 8], [5, 5, 1]], "int32")
    layer.build()
    table = layer.embeddings.numpy()
    layer.quantize("int8")
    tq, ts = _abs_max(table, -1)
    np.testing.assert_allclose(_to_numpy(layer(ids)), (tq / ts)[ids], rtol=1e-6, atol=1e-7)
    assert [(v.name, v.dtype) for v in layer.weights] == [
        ("embeddings", "int8"),
        ("embeddings_scale", "float32"),
    ]


def test_int8_with_lora_adds_the_low_rank_term():
    layer = layers.Dense(3, use_bias=False)
    x = RNG.normal(size=(2, 4)).astype("float32")
    layer.build((None, 4))
    layer.quantize("int8")
    quantized = _to_numpy(layer(x))
    layer.enable_lora(2)
    b = RNG.normal(size=(2, 3)).astype("float32")
    layer.lora_kernel_b.assign(b)
    expected = quantized + x @ layer.lora_kernel_a.numpy() @ b
    np.testing.assert_allclose(_to_numpy(layer(x)), expected, rtol=1e-5, atol=1e-5)


def test_quantize_errors_and_model_filters():
    unbuilt = layers.Dense(2)
    with pytest.raises(ValueError, match="not built"):
        unbuilt.quantize("int8")
    dense = layers.Dense(2)
    dense.build((None, 3))
    with pytest.raises(ValueError, match="Invalid quantization mode"):
        dense.quantize("int3")
    dense.quantize("int8")
    with pytest.raises(ValueError, match="already quantized"):
        dense.quantize("int8")
    with pytest.raises(NotImplementedError, match="does not have a `quantize`"):
        layers.ReLU().quantize("int8")
    model = tripod.Sequential(
        [tripod.Input((3,)), layers.Dense(4, name="keep"), layers.ReLU(), layers.Dense(2, name="q")]
    )
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        model.quantize("int8", filters="^q$")
    assert [layer.dtype_policy.name for layer in model.layers] == [
        "float32",
        "float32",
        "int8_from_float32",
    ]


def _model(ns, quantize=False):
    model = ns.Sequential(
        [
            ns.Input((2, 4)),
            ns.layers.Dense(6, activation="relu", name="d"),
            ns.layers.EinsumDense("abc,cd->abd", (2, 5), bias_axes="d", name="e"),
            ns.layers.Flatten(name="f"),
        ]
    )
    if quantize:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.quantize("int8")
    return model


def _embedding_model(ns, quantize=False):
    model = ns.Sequential([ns.Input((3,), dtype="int32"), ns.layers.Embedding(10, 4, name="m")])
    if quantize:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.quantize("int8")
    return model


@pytest.mark.parametrize("make", [_model, _embedding_model], ids=["dense", "embedding"])
def test_keras_quantized_weights_load_into_tripod_and_back(tmp_path, make):
    keras = import_keras()
    x = (
        RNG.integers(0, 10, size=(4, 3)).astype("int32")
        if make is _embedding_model
        else RNG.normal(size=(4, 2, 4)).astype("float32")
    )
    kmodel = make(keras, quantize=True)
    kmodel.save_weights(tmp_path / "keras.weights.h5")
    mine = make(tripod, quantize=True)
    mine.load_weights(tmp_path / "keras.weights.h5")
    expected = np.asarray(kmodel.predict(x, verbose=0))
    np.testing.assert_allclose(mine.predict(x, verbose=0), expected, rtol=1e-5, atol=1e-5)
    fresh = make(tripod)
    fresh.set_weights([RNG.normal(size=w.shape).astype("float32") for w in fresh.get_weights()])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fresh.quantize("int8")
    fresh.save_weights(tmp_path / "tripod.weights.h5")
    back = make(keras, quantize=True)
    back.load_weights(tmp_path / "tripod.weights.h5")
    np.testing.assert_allclose(
        np.asarray(back.predict(x, verbose=0)), fresh.predict(x, verbose=0), rtol=1e-5, atol=1e-5
    )


def test_same_kernel_quantizes_like_keras():
    keras = import_keras()
    kmodel, mine = _model(keras), _model(tripod)
    mine.set_weights([np.asarray(w) for w in kmodel.get_weights()])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kmodel.quantize("int8")
        mine.quantize("int8")
    for klayer, layer in zip(kmodel.layers[:2], mine.layers[:2]):
        np.testing.assert_array_equal(layer.kernel.numpy(), np.asarray(klayer._kernel))
        np.testing.assert_allclose(
            layer.kernel_scale.numpy(), np.asarray(klayer.kernel_scale), rtol=1e-6
        )


def test_quantized_model_save_and_load_model_round_trip(tmp_path):
    model = _model(tripod, quantize=True)
    x = RNG.normal(size=(3, 2, 4)).astype("float32")
    model.save(tmp_path / "q.keras")
    loaded = tripod.saving.load_model(tmp_path / "q.keras")
    assert [layer.dtype_policy.name for layer in loaded.layers[:2]] == ["int8_from_float32"] * 2
    assert loaded.layers[0].kernel.dtype == "int8"
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), atol=1e-6)
    keras = import_keras()
    kloaded = keras.saving.load_model(tmp_path / "q.keras")
    np.testing.assert_allclose(
        np.asarray(kloaded.predict(x, verbose=0)), model.predict(x, verbose=0), atol=1e-5
    )


@pytest.mark.skipif(not TRAINS, reason="the numpy backend is inference-only")
def test_inputs_gradient_uses_the_dequantized_kernel():
    layer = layers.Dense(3, use_bias=False)
    layer.build((None, 4))
    layer.quantize("int8")
    x = tripod.Variable(RNG.normal(size=(2, 4)).astype("float32"))
    _, (grad,) = tripod.value_and_grad(lambda: tripod.ops.sum(layer(x.value)), [x])()
    dequantized = layer.kernel.numpy() / layer.kernel_scale.numpy()
    np.testing.assert_allclose(_to_numpy(grad), np.tile(dequantized.sum(1), (2, 1)), rtol=1e-5)


@pytest.mark.skipif(not TRAINS, reason="the numpy backend is inference-only")
def test_fit_on_int8_model_trains_lora_and_bias_only():
    model = _model(tripod, quantize=True)
    model.layers[0].enable_lora(2)
    kernels = [layer.kernel.numpy() for layer in model.layers[:2]]
    model.compile(optimizer=tripod.optimizers.SGD(0.05), loss="mse")
    b_before = model.layers[0].lora_kernel_b.numpy()
    x, y = RNG.normal(size=(8, 2, 4)), RNG.normal(size=(8, 10))
    model.fit(x, y, batch_size=4, epochs=1, verbose=0)
    for layer, kernel in zip(model.layers[:2], kernels):
        np.testing.assert_array_equal(layer.kernel.numpy(), kernel)
    assert not np.array_equal(model.layers[0].lora_kernel_b.numpy(), b_before)
