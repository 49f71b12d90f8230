"""DepthwiseConv1D/2D and SeparableConv1D/2D against nested-loop NumPy references."""

import numpy as np
import pytest

from tests.layers.convolution import reference as ref
from tests.layers.convolution.helpers import assert_close, per_dim, run_with_random_weights
from tests.layers.harness import random_input, run_layer_test
from tripod import layers

SPATIAL = {1: (7,), 2: (5, 4)}
CASES = [
    (1, {"kernel_size": 3, "strides": 2, "padding": "same", "depth_multiplier": 2}),
    (1, {"kernel_size": 2, "dilation_rate": 2, "padding": "valid"}),
    (2, {"kernel_size": 3, "dilation_rate": 2, "padding": "same", "depth_multiplier": 2}),
    (2, {"kernel_size": (2, 3), "strides": (2, 1), "padding": "valid"}),
]


def _args(kwargs, rank):
    strides, dilation_rate = kwargs.get("strides", 1), kwargs.get("dilation_rate", 1)
    return per_dim(strides, rank), kwargs["padding"], per_dim(dilation_rate, rank)


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("rank,kwargs", CASES)
def test_depthwise_matches_reference(rank, kwargs, data_format):
    x = random_input((2,) + SPATIAL[rank] + (3,))
    cls = layers.DepthwiseConv1D if rank == 1 else layers.DepthwiseConv2D
    y, (kernel, bias) = run_with_random_weights(
        cls(data_format=data_format, **kwargs), x, data_format
    )
    assert_close(y, ref.depthwise_conv(x, kernel, *_args(kwargs, rank)) + bias)


@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("rank,kwargs", CASES)
def test_separable_matches_reference(rank, kwargs, data_format):
    x = random_input((2,) + SPATIAL[rank] + (3,))
    cls = layers.SeparableConv1D if rank == 1 else layers.SeparableConv2D
    layer = cls(filters=4, data_format=data_format, **kwargs)
    y, (depthwise, pointwise, bias) = run_with_random_weights(layer, x, data_format)
    mid = ref.depthwise_conv(x, depthwise, *_args(kwargs, rank))
    expected = ref.conv(mid, pointwise, (1,) * rank, "valid", (1,) * rank) + bias
    assert_close(y, expected)


@pytest.mark.parametrize("cls,rank", [(layers.DepthwiseConv1D, 1), (layers.DepthwiseConv2D, 2)])
def test_depthwise_contract(cls, rank):
    run_layer_test(
        cls,
        {"kernel_size": 2, "depth_multiplier": 2, "padding": "same"},
        (2,) + SPATIAL[rank] + (3,),
        expected_output_shape=(2,) + SPATIAL[rank] + (6,),
        expected_num_trainable_weights=2,
    )


@pytest.mark.parametrize("cls,rank", [(layers.SeparableConv1D, 1), (layers.SeparableConv2D, 2)])
def test_separable_contract(cls, rank):
    run_layer_test(
        cls,
        {"filters": 4, "kernel_size": 2, "strides": 2, "padding": "same"},
        (2,) + SPATIAL[rank] + (3,),
        expected_output_shape=(2,) + tuple(-(-n // 2) for n in SPATIAL[rank]) + (4,),
        expected_num_trainable_weights=3,
    )


def test_weight_names_shapes_and_configs():
    depthwise = layers.DepthwiseConv2D(3, depth_multiplier=2)
    depthwise.build((None, 5, 5, 3))
    assert [(v.name, tuple(v.shape)) for v in depthwise.weights] == [
        ("kernel", (3, 3, 3, 2)),
        ("bias", (6,)),
    ]
    assert set(depthwise.get_config()) == {
        "name",
        "trainable",
        "dtype",
        "depth_multiplier",
        "kernel_size",
        "strides",
        "padding",
        "data_format",
        "dilation_rate",
        "activation",
        "use_bias",
        "depthwise_initializer",
        "bias_initializer",
        "depthwise_regularizer",
        "bias_regularizer",
        "activity_regularizer",
        "depthwise_constraint",
        "bias_constraint",
    }
    separable = layers.SeparableConv1D(4, 3, depth_multiplier=2)
    separable.build((None, 7, 3))
    assert [(v.name, tuple(v.shape)) for v in separable.weights] == [
        ("depthwise_kernel", (3, 3, 2)),
        ("pointwise_kernel", (1, 6, 4)),
        ("bias", (4,)),
    ]
    assert set(separable.get_config()) == {
        "name",
        "trainable",
        "dtype",
        "depth_multiplier",
        "filters",
        "kernel_size",
        "strides",
        "padding",
        "data_format",
        "dilation_rate",
        "activation",
        "use_bias",
        "depthwise_initializer",
        "pointwise_initializer",
        "bias_initializer",
        "depthwise_regularizer",
        "pointwise_regularizer",
        "bias_regularizer",
        "activity_regularizer",
        "depthwise_constraint",
        "pointwise_constraint",
        "bias_constraint",
    }


def test_aliases_and_errors():
    assert layers.SeparableConvolution1D is layers.SeparableConv1D
    assert layers.SeparableConvolution2D is layers.SeparableConv2D
    with pytest.raises(ValueError, match="depth_multiplier must be a positive integer"):
        layers.DepthwiseConv2D(3, depth_multiplier=0)
    with pytest.raises(ValueError, match="padding must be one of"):
        layers.SeparableConv1D(2, 3, padding="causal")
    with pytest.raises(ValueError, match=r"DepthwiseConv1D 'd'.*rank 3.*\(1, 4, 4, 2\)"):
        layers.DepthwiseConv1D(2, name="d")(np.zeros((1, 4, 4, 2), "float32"))
