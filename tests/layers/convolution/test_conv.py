"""Conv1D / Conv2D / Conv3D against a nested-loop NumPy convolution, configs, errors."""

import numpy as np
import pytest

from tests.layers.convolution import reference as ref
from tests.layers.convolution.helpers import assert_close, per_dim, run_with_random_weights
from tests.layers.harness import random_input, run_layer_test
from tripod import layers

CONV_KEYS = {
    "name",
    "trainable",
    "dtype",
    "filters",
    "kernel_size",
    "strides",
    "padding",
    "data_format",
    "dilation_rate",
    "groups",
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
CLASSES = {1: layers.Conv1D, 2: layers.Conv2D, 3: layers.Conv3D}
SPATIAL = {1: (7,), 2: (5, 4), 3: (4, 3, 3)}

CASES = [
    (1, {"filters": 3, "kernel_size": 3, "strides": 2, "padding": "same"}),
    (1, {"filters": 3, "kernel_size": 3, "dilation_rate": 2, "padding": "causal"}),
    (1, {"filters": 4, "kernel_size": 2, "padding": "same", "groups": 2}),
    (1, {"filters": 2, "kernel_size": 4, "padding": "valid"}),
    (2, {"filters": 3, "kernel_size": (3, 2), "strides": (2, 1), "padding": "same"}),
    (2, {"filters": 4, "kernel_size": 3, "dilation_rate": 2, "padding": "same", "groups": 2}),
    (2, {"filters": 2, "kernel_size": 2, "padding": "valid", "strides": 2}),
    (3, {"filters": 2, "kernel_size": 2, "strides": 2, "padding": "valid"}),
    (3, {"filters": 2, "kernel_size": (2, 3, 1), "padding": "same", "dilation_rate": (1, 1, 2)}),
]


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("rank,kwargs", CASES)
def test_matches_nested_loop_convolution(rank, kwargs, data_format):
    x = random_input((2,) + SPATIAL[rank] + (4,))
    layer = CLASSES[rank](data_format=data_format, **kwargs)
    y, (kernel, bias) = run_with_random_weights(layer, x, data_format)
    expected = (
        ref.conv(
            x,
            kernel,
            per_dim(kwargs.get("strides", 1), rank),
            kwargs["padding"],
            per_dim(kwargs.get("dilation_rate", 1), rank),
            kwargs.get("groups", 1),
        )
        + bias
    )
    assert_close(y, expected)
    assert tuple(layer.compute_output_shape(layer_input_shape(x, data_format))) == (
        layer_input_shape(expected, data_format)
    )


def layer_input_shape(x_last, data_format):
    return x_last.shape if data_format == "channels_last" else ref.to_channels_first(x_last).shape


@pytest.mark.parametrize("rank", [1, 2, 3])
def test_layer_contract(rank):
    out = run_layer_test(
        CLASSES[rank],
        init_kwargs={"filters": 3, "kernel_size": 2, "activation": "relu"},
        input_shape=(2,) + SPATIAL[rank] + (2,),
        expected_output_shape=(2,) + tuple(n - 1 for n in SPATIAL[rank]) + (3,),
        expected_num_trainable_weights=2,
        expected_num_non_trainable_weights=0,
        expected_num_seed_generators=0,
        supports_masking=False,
    )
    assert (out >= 0).all()


def test_channels_first_grouped_contract():
    run_layer_test(
        layers.Conv2D,
        init_kwargs={
            "filters": 4,
            "kernel_size": 3,
            "padding": "same",
            "groups": 2,
            "use_bias": False,
            "data_format": "channels_first",
        },
        input_shape=(2, 4, 5, 5),
        expected_output_shape=(2, 4, 5, 5),
        expected_num_trainable_weights=1,
    )


def test_weights_names_shapes_and_config():
    layer = layers.Conv2D(4, 3, groups=2)
    layer.build((None, 6, 6, 6))
    assert [(v.name, tuple(v.shape)) for v in layer.weights] == [
        ("kernel", (3, 3, 3, 4)),
        ("bias", (4,)),
    ]
    config = layer.get_config()
    assert set(config) == CONV_KEYS
    assert config["kernel_size"] == (3, 3) and config["strides"] == (1, 1)
    assert config["activation"] == "linear" and config["data_format"] == "channels_last"
    assert layers.Conv1D(2, 3, padding="CAUSAL").get_config()["padding"] == "causal"


def test_aliases():
    assert layers.Convolution1D is layers.Conv1D
    assert layers.Convolution2D is layers.Conv2D
    assert layers.Convolution3D is layers.Conv3D


def test_output_shape_with_unknown_dims():
    layer = layers.Conv2D(4, 3, strides=2, padding="same", data_format="channels_first")
    assert layer.compute_output_shape((None, 2, None, 7)) == (None, 4, None, 4)


def test_wrong_rank_names_layer_and_shapes():
    layer = layers.Conv2D(4, 3, name="my_conv")
    with pytest.raises(ValueError, match=r"Conv2D 'my_conv'.*rank 4.*\(1, 5, 5\)"):
        layer(np.zeros((1, 5, 5), "float32"))


def test_channels_not_divisible_by_groups():
    with pytest.raises(ValueError, match=r"Conv2D 'g'.*divisible by groups=2.*3 channels"):
        layers.Conv2D(4, 3, groups=2, name="g")(np.zeros((1, 5, 5, 3), "float32"))
    with pytest.raises(ValueError, match="filters must be divisible by groups"):
        layers.Conv2D(5, 3, groups=2)


def test_channel_count_is_fixed_after_build():
    layer = layers.Conv1D(2, 2)
    layer(np.zeros((1, 4, 3), "float32"))
    with pytest.raises(ValueError, match="expected axis -1 of the input shape to have value 3"):
        layer(np.zeros((1, 4, 2), "float32"))


@pytest.mark.parametrize(
    "make,match",
    [
        (lambda: layers.Conv2D(4, 3, padding="full"), "padding must be one of"),
        (lambda: layers.Conv2D(4, 3, padding="causal"), "padding must be one of"),
        (lambda: layers.Conv2D(4, (3, 3, 3)), "kernel_size must be"),
        (lambda: layers.Conv2D(4, 3, strides=0), "strides must be"),
        (lambda: layers.Conv2D(0, 3), "filters must be a positive integer"),
        (lambda: layers.Conv2D(4, 3, data_format="nchw"), "data_format"),
        (lambda: layers.Conv2D(4, 3, strides=2, dilation_rate=2), "strides > 1 cannot be combined"),
    ],
)
def test_bad_arguments(make, match):
    with pytest.raises(ValueError, match=match):
        make()
