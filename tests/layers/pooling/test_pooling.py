"""MaxPooling / AveragePooling 1D-3D against nested-loop NumPy window reductions."""

import numpy as np
import pytest

from tests.layers.convolution import reference as ref
from tests.layers.convolution.helpers import assert_close
from tests.layers.harness import random_input, run_layer_test, to_numpy
from tripod import layers

MAX = {1: layers.MaxPooling1D, 2: layers.MaxPooling2D, 3: layers.MaxPooling3D}
AVG = {1: layers.AveragePooling1D, 2: layers.AveragePooling2D, 3: layers.AveragePooling3D}
SPATIAL = {1: (7,), 2: (5, 6), 3: (4, 5, 3)}
CASES = [
    (1, {"pool_size": 2}),
    (1, {"pool_size": 3, "strides": 2, "padding": "same"}),
    (2, {"pool_size": (2, 3), "strides": (1, 2), "padding": "valid"}),
    (2, {"pool_size": 3, "strides": 2, "padding": "same"}),
    (3, {"pool_size": 2, "padding": "same"}),
    (3, {"pool_size": (2, 2, 1), "strides": 1, "padding": "valid"}),
]


def _tuple(value, rank):
    return (value,) * rank if isinstance(value, int) else tuple(value)


@pytest.mark.parametrize("kind", ["max", "average"])
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("rank,kwargs", CASES)
def test_matches_nested_loop_pooling(rank, kwargs, data_format, kind):
    x = random_input((2,) + SPATIAL[rank] + (3,))
    layer = (MAX if kind == "max" else AVG)[rank](data_format=data_format, **kwargs)
    x_in = x if data_format == "channels_last" else ref.to_channels_first(x)
    y = to_numpy(layer(x_in))
    pool_size = _tuple(kwargs["pool_size"], rank)
    strides = _tuple(kwargs.get("strides", pool_size), rank)
    expected = ref.pool(x, pool_size, strides, kwargs.get("padding", "valid"), kind)
    if data_format == "channels_first":
        expected = ref.to_channels_first(expected)
    assert_close(y, expected, atol=1e-5)
    assert tuple(layer.compute_output_shape(x_in.shape)) == expected.shape


@pytest.mark.parametrize("classes", [MAX, AVG])
@pytest.mark.parametrize("rank", [1, 2, 3])
def test_layer_contract(classes, rank):
    run_layer_test(
        classes[rank],
        {"pool_size": 2, "padding": "same"},
        (2,) + SPATIAL[rank] + (3,),
        expected_output_shape=(2,) + tuple(-(-n // 2) for n in SPATIAL[rank]) + (3,),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
        supports_masking=False,
    )


def test_config_defaults_and_aliases():
    config = layers.MaxPooling2D().get_config()
    assert set(config) == {
        "name",
        "trainable",
        "dtype",
        "pool_size",
        "padding",
        "strides",
        "data_format",
    }
    assert config["pool_size"] == (2, 2) and config["strides"] == (2, 2)
    assert layers.MaxPooling1D().get_config()["pool_size"] == (2,)
    assert layers.AveragePooling2D(3, strides=1).get_config()["strides"] == (1, 1)
    assert layers.MaxPool1D is layers.MaxPooling1D and layers.MaxPool3D is layers.MaxPooling3D
    assert (
        layers.AvgPool2D is layers.AveragePooling2D and layers.AvgPool3D is layers.AveragePooling3D
    )


def test_output_shape_with_unknown_dims():
    layer = layers.MaxPooling2D(3, strides=2, padding="same", data_format="channels_first")
    assert layer.compute_output_shape((None, 4, None, 7)) == (None, 4, None, 4)


def test_errors():
    with pytest.raises(ValueError, match=r"layer 'p'.*expected ndim=4, found ndim=3.*\(1, 4, 4\)"):
        layers.MaxPooling2D(name="p")(np.zeros((1, 4, 4), "float32"))
    with pytest.raises(ValueError, match="padding must be one of"):
        layers.MaxPooling1D(padding="causal")
    with pytest.raises(ValueError, match="pool_size must be"):
        layers.AveragePooling2D((2, 2, 2))
    with pytest.raises(ValueError, match="strides must be"):
        layers.AveragePooling1D(2, strides=0)
    with pytest.raises(ValueError, match="empty output"):
        layers.MaxPooling2D(3).compute_output_shape((None, 2, 2, 1))
