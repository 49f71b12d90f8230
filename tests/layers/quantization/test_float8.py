"""float8 quantization of Dense and EinsumDense: Keras's variables, forward outputs against Keras
and a NumPy/ml_dtypes reference, delayed-scaling state updated by a training step, files moving
both ways and `.keras` round trips."""

import warnings

import numpy as np
import pytest

import tripod
from tests.keras_import import import_keras
from tripod import layers
from tripod.backends import config

RNG = np.random.default_rng(3)
TRAINS = config.backend() != "numpy"
_STATE = [
    "inputs_scale",
    "inputs_amax_history",
    "kernel_scale",
    "kernel_amax_history",
    "outputs_grad_scale",
    "outputs_grad_amax_history",
]


def _model(ns, quantize=False):
    model = ns.Sequential(
        [
            ns.Input((4,)),
            ns.layers.Dense(6, name="d"),
            ns.layers.EinsumDense("ab,bc->ac", 3, name="e"),
        ]
    )
    if quantize:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.quantize("float8")
    return model


def test_float8_variables_and_forward_match_numpy():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    layer = layers.Dense(3, use_bias=False)
    layer.build((None, 4))
    layer.quantize("float8")
    assert [v.name for v in layer.weights][1:] == _STATE  # the float kernel stays first
    assert layer.dtype_policy.name == "float8_from_float32"
    assert tuple(layer.inputs_amax_history.shape) == (1024,)
    x = (RNG.normal(size=(2, 4)) * 3).astype("float32")
    e4m3 = ml_dtypes.float8_e4m3fn
    expected = x.astype(e4m3).astype("float32") @ layer.kernel.numpy().astype(e4m3).astype(
        "float32"
    )
    got = tripod.ops.convert_to_numpy(layer(x))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5 * np.abs(expected).max())


def test_float8_files_and_outputs_match_keras(tmp_path):
    keras = import_keras()
    kmodel = _model(keras, quantize=True)
    for layer in kmodel.layers:
        layer.inputs_scale.assign(0.5)
    x = RNG.normal(size=(5, 4)).astype("float32")
    kmodel.save_weights(tmp_path / "keras.weights.h5")
    mine = _model(tripod, quantize=True)
    mine.load_weights(tmp_path / "keras.weights.h5")
    np.testing.assert_allclose(
        mine.predict(x, verbose=0), np.asarray(kmodel.predict(x, verbose=0)), rtol=1e-5, atol=1e-6
    )
    mine.save_weights(tmp_path / "tripod.weights.h5")
    back = _model(keras, quantize=True)
    back.load_weights(tmp_path / "tripod.weights.h5")
    np.testing.assert_array_equal(np.asarray(back.layers[0].inputs_scale), 0.5)


def test_float8_save_and_load_model_round_trip(tmp_path):
    model = _model(tripod, quantize=True)
    x = RNG.normal(size=(3, 4)).astype("float32")
    model.save(tmp_path / "f8.keras")
    loaded = tripod.saving.load_model(tmp_path / "f8.keras")
    assert [layer.dtype_policy.name for layer in loaded.layers] == ["float8_from_float32"] * 2
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))


@pytest.mark.skipif(not TRAINS, reason="the numpy backend is inference-only")
def test_training_step_records_amax_histories():
    model = _model(tripod, quantize=True)
    model.compile(optimizer=tripod.optimizers.SGD(0.01), loss="mse")
    x, y = RNG.normal(size=(8, 4)).astype("float32"), RNG.normal(size=(8, 3)).astype("float32")
    first = model.layers[0]
    kernel = first.kernel.numpy()
    model.train_on_batch(x, y)
    np.testing.assert_allclose(first.inputs_amax_history.numpy()[0], np.abs(x).max(), rtol=1e-6)
    np.testing.assert_allclose(
        first.kernel_amax_history.numpy()[0], np.abs(kernel).max(), rtol=1e-6
    )
    assert first.outputs_grad_amax_history.numpy()[0] > 0
    assert first.inputs_amax_history.numpy()[1:].sum() == 0
    assert not np.array_equal(first.kernel.numpy(), kernel)  # the float kernel trains
    model.train_on_batch(x, y)  # the scales follow the recorded maxima from the next step
    np.testing.assert_allclose(first.inputs_scale.numpy(), np.abs(x).max() / 448.0, rtol=1e-6)


def test_float8_is_refused_where_keras_refuses_it():
    embedding = layers.Embedding(4, 2)
    embedding.build()
    with pytest.raises(NotImplementedError, match="float8"):
        embedding.quantize("float8")
    dense = layers.Dense(2)
    dense.build((None, 3))
    dense.quantize("float8")
    with pytest.raises(NotImplementedError, match="LoRA"):
        dense.enable_lora(2)
