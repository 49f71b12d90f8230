"""Conv1DTranspose / Conv2DTranspose / Conv3DTranspose against a NumPy scatter, configs, errors."""

import numpy as np
import pytest

from tests.layers.convolution import reference as ref
from tests.layers.convolution.helpers import assert_close, per_dim, run_with_random_weights
from tests.layers.harness import random_input, run_layer_test
from tripod import layers

CLASSES = {1: layers.Conv1DTranspose, 2: layers.Conv2DTranspose, 3: layers.Conv3DTranspose}
SPATIAL = {1: (5,), 2: (4, 3), 3: (3, 2, 2)}
CASES = [
    (1, {"filters": 3, "kernel_size": 3, "strides": 2, "padding": "same"}),
    (1, {"filters": 3, "kernel_size": 2, "strides": 3, "padding": "valid"}),
    (1, {"filters": 2, "kernel_size": 4, "strides": 2, "padding": "same", "output_padding": 1}),
    (1, {"filters": 2, "kernel_size": 3, "strides": 2, "padding": "valid", "output_padding": 1}),
    (1, {"filters": 2, "kernel_size": 3, "dilation_rate": 2, "padding": "same"}),
    (2, {"filters": 3, "kernel_size": 3, "strides": 2, "padding": "same", "output_padding": 1}),
    (2, {"filters": 2, "kernel_size": (3, 2), "dilation_rate": 2, "padding": "valid"}),
    (2, {"filters": 2, "kernel_size": (2, 3), "strides": (1, 2), "padding": "same"}),
    (3, {"filters": 2, "kernel_size": 2, "strides": 2, "padding": "same"}),
]


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("rank,kwargs", CASES)
def test_matches_nested_loop_scatter(rank, kwargs, data_format):
    x = random_input((2,) + SPATIAL[rank] + (3,))
    layer = CLASSES[rank](data_format=data_format, **kwargs)
    y, (kernel, bias) = run_with_random_weights(layer, x, data_format)
    expected = (
        ref.conv_transpose(
            x,
            kernel,
            per_dim(kwargs.get("strides", 1), rank),
            kwargs["padding"],
            per_dim(kwargs.get("output_padding"), rank),
            per_dim(kwargs.get("dilation_rate", 1), rank),
        )
        + bias
    )
    assert_close(y, expected)
    in_shape = x.shape if data_format == "channels_last" else ref.to_channels_first(x).shape
    out_shape = (
        expected.shape if data_format == "channels_last" else ref.to_channels_first(expected).shape
    )
    assert tuple(layer.compute_output_shape(in_shape)) == out_shape


@pytest.mark.parametrize("rank", [1, 2, 3])
def test_layer_contract(rank):
    run_layer_test(
        CLASSES[rank],
        {"filters": 2, "kernel_size": 2, "strides": 2, "padding": "same"},
        (2,) + SPATIAL[rank] + (3,),
        expected_output_shape=(2,) + tuple(2 * n for n in SPATIAL[rank]) + (2,),
        expected_num_trainable_weights=2,
        expected_num_non_trainable_weights=0,
    )


def test_weights_and_config():
    layer = layers.Conv2DTranspose(4, 3, strides=2, output_padding=1)
    layer.build((None, 5, 5, 2))
    assert [(v.name, tuple(v.shape)) for v in layer.weights] == [
        ("kernel", (3, 3, 4, 2)),
        ("bias", (4,)),
    ]
    config = layer.get_config()
    assert set(config) == {
        "name",
        "trainable",
        "dtype",
        "filters",
        "kernel_size",
        "strides",
        "padding",
        "output_padding",
        "data_format",
        "dilation_rate",
        "activation",
        "use_bias",
        "kernel_initializer",
        "bias_initializer",
        "kernel_regularizer",
        "bias_regularizer",
        "activity_regularizer",
        "kernel_constraint",
        "bias_constraint",
    }
    assert config["output_padding"] == (1, 1)
    assert layers.Conv2DTranspose(4, 3).get_config()["output_padding"] is None


def test_aliases():
    assert layers.Convolution1DTranspose is layers.Conv1DTranspose
    assert layers.Convolution2DTranspose is layers.Conv2DTranspose
    assert layers.Convolution3DTranspose is layers.Conv3DTranspose


def test_errors():
    with pytest.raises(ValueError, match="output_padding must be"):
        layers.Conv2DTranspose(4, 3, strides=2, output_padding=2)
    with pytest.raises(ValueError, match="padding must be one of"):
        layers.Conv1DTranspose(4, 3, padding="causal")
    with pytest.raises(ValueError, match=r"Conv3DTranspose 't'.*rank 5.*\(1, 4, 4, 2\)"):
        layers.Conv3DTranspose(2, 2, name="t")(np.zeros((1, 4, 4, 2), "float32"))
