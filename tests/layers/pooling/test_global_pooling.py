"""Global max / average pooling (GlobalAveragePooling1D with a mask), and a small CNN."""

import numpy as np
import pytest

import tripod
from tests.layers.convolution.helpers import assert_close
from tests.layers.harness import random_input, run_layer_test, to_numpy
from tripod import layers
from tripod.backends import config

AVG = {
    1: layers.GlobalAveragePooling1D,
    2: layers.GlobalAveragePooling2D,
    3: layers.GlobalAveragePooling3D,
}
MAX = {1: layers.GlobalMaxPooling1D, 2: layers.GlobalMaxPooling2D, 3: layers.GlobalMaxPooling3D}
SPATIAL = {1: (5,), 2: (4, 3), 3: (3, 2, 2)}


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("kind", ["max", "average"])
def test_matches_numpy_reduction(kind, rank, data_format, keepdims):
    first = data_format == "channels_first"
    shape = (2, 3) + SPATIAL[rank] if first else (2,) + SPATIAL[rank] + (3,)
    x = random_input(shape)
    layer = (MAX if kind == "max" else AVG)[rank](data_format=data_format, keepdims=keepdims)
    axes = tuple(range(2, rank + 2)) if first else tuple(range(1, rank + 1))
    expected = (np.max if kind == "max" else np.mean)(x, axis=axes, keepdims=keepdims)
    assert_close(to_numpy(layer(x)), expected, atol=1e-6)
    assert tuple(layer.compute_output_shape(shape)) == expected.shape


@pytest.mark.parametrize("classes", [MAX, AVG])
@pytest.mark.parametrize("rank", [1, 2, 3])
def test_layer_contract(classes, rank):
    run_layer_test(
        classes[rank],
        {"keepdims": True},
        (2,) + SPATIAL[rank] + (4,),
        expected_output_shape=(2,) + (1,) * rank + (4,),
        expected_num_trainable_weights=0,
    )


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_average_1d_leaves_out_masked_steps(data_format):
    x = random_input((2, 5, 3))
    mask = np.array([[1, 1, 0, 0, 0], [1, 1, 1, 1, 1]], bool)
    expected = np.stack([x[0, :2].mean(0), x[1].mean(0)])
    x_in = x if data_format == "channels_last" else np.swapaxes(x, 1, 2)
    layer = layers.GlobalAveragePooling1D(data_format=data_format)
    assert_close(to_numpy(layer(x_in, mask=mask)), expected, atol=1e-6)
    assert layer.supports_masking and layer.compute_mask(x_in, mask) is None


def test_mask_flows_from_embedding_like_input():
    inputs = tripod.Input((5, 3))
    masked = layers.Masking(0.0)(inputs) if hasattr(layers, "Masking") else None
    if masked is None:
        pytest.skip("Masking layer not available yet")
    model = tripod.Model(inputs, layers.GlobalAveragePooling1D()(masked))
    x = random_input((2, 5, 3))
    x[0, 3:] = 0.0
    expected = np.stack([x[0, :3].mean(0), x[1].mean(0)])
    assert_close(to_numpy(model(x)), expected, atol=1e-6)


def test_config_and_aliases():
    config = layers.GlobalAveragePooling2D().get_config()
    assert set(config) == {"name", "trainable", "dtype", "data_format", "keepdims"}
    assert config["keepdims"] is False and config["data_format"] == "channels_last"
    assert layers.GlobalAvgPool1D is layers.GlobalAveragePooling1D
    assert layers.GlobalAvgPool3D is layers.GlobalAveragePooling3D
    assert layers.GlobalMaxPool2D is layers.GlobalMaxPooling2D
    assert not layers.GlobalMaxPooling1D().supports_masking


def test_errors():
    with pytest.raises(
        ValueError, match=r"layer 'g'.*expected ndim=5, found ndim=4.*\(1, 4, 4, 2\)"
    ):
        layers.GlobalMaxPooling3D(name="g")(np.zeros((1, 4, 4, 2), "float32"))
    with pytest.raises(ValueError, match="data_format"):
        layers.GlobalAveragePooling2D(data_format="NHWC")


def test_small_cnn_runs_symbolically_and_eagerly():
    inputs = tripod.Input((8, 8, 2))
    x = layers.Conv2D(4, 3, padding="same", activation="relu")(inputs)
    x = layers.MaxPooling2D()(x)
    x = layers.SeparableConv2D(4, 3)(x)
    outputs = layers.Dense(2)(layers.GlobalAveragePooling2D()(x))
    assert tuple(outputs.shape) == (None, 2)
    model = tripod.Model(inputs, outputs)
    assert to_numpy(model(random_input((3, 8, 8, 2)))).shape == (3, 2)


@pytest.mark.skipif(config.backend() == "numpy", reason="the numpy backend does not train")
def test_cnn_with_pooling_trains_in_compiled_fit():
    inputs = tripod.Input((8, 8, 2))
    x = layers.Conv2D(4, 3, padding="same", activation="relu")(inputs)
    x = layers.MaxPooling2D()(x)
    x = layers.AveragePooling2D(3, strides=1, padding="same")(x)
    x = layers.Conv2DTranspose(3, 2, strides=2)(x)
    x = layers.AdaptiveMaxPooling2D(2)(x)
    outputs = layers.Dense(1)(layers.GlobalAveragePooling2D()(x))
    model = tripod.Model(inputs, outputs)
    model.compile(optimizer="sgd", loss="mse")
    before = [w.copy() for w in model.get_weights()]
    history = model.fit(random_input((8, 8, 8, 2)), random_input((8, 1)), epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"][0])
    assert all(not np.allclose(b, a) for b, a in zip(before, model.get_weights()))
