"""Every built-in layer in `tripod.layers` rebuilds from its config, and every constructor argument
reaches the config entry of its own name.

For each layer class: construct it (with small required arguments), take `get_config()`, rebuild
with `from_config` (directly, and after a JSON round trip as saving does) and compare the configs.
Then, one argument at a time, construct it with a non-default value and check that exactly that
argument's config entry changed, and that the value survives the round trip: a base class that
received an argument in another one's position would change a different entry, or none.
"""

import inspect
import json

import numpy as np
import pytest

import tripod
from tripod import layers

#: classes that wrap a native jax / torch / TensorFlow object, whose configs their own tests
#: (tests/layers/interop) check on the backend that has that object
NATIVE_WRAPPERS = {"FlaxLayer", "JaxLayer", "TFSMLayer", "TorchModuleWrapper"}
#: arguments handled by every layer, swept for each class too
COMMON = {"name": "custom_name", "trainable": False, "dtype": "float64"}


class Fresh:
    """An argument value built anew for each layer (a sub-layer must not be shared)."""

    def __init__(self, make):
        self.make = make


class Joint:
    """Arguments that only go together (e.g. `mean` and `variance`), swept as one case."""

    def __init__(self, **kwargs):
        self.kwargs = kwargs


def _value(value):
    return value.make() if isinstance(value, Fresh) else value


def _dense(name):
    return Fresh(lambda: layers.Dense(2, name=name))


def _lstm(name):
    return Fresh(lambda: layers.LSTM(2, name=name))


#: the required arguments of each class that has some (callables build fresh sub-layers)
REQUIRED = {
    "Activation": {"activation": "relu"},
    "AdaptiveAveragePooling1D": {"output_size": 2},
    "AdaptiveAveragePooling2D": {"output_size": 2},
    "AdaptiveAveragePooling3D": {"output_size": 2},
    "AdaptiveMaxPooling1D": {"output_size": 2},
    "AdaptiveMaxPooling2D": {"output_size": 2},
    "AdaptiveMaxPooling3D": {"output_size": 2},
    "AlphaDropout": {"rate": 0.5},
    "AveragePooling1D": {"pool_size": 2},
    "AveragePooling2D": {"pool_size": 2},
    "AveragePooling3D": {"pool_size": 2},
    "Bidirectional": {"layer": _lstm("inner")},
    "CategoryEncoding": {"num_tokens": 3},
    "CenterCrop": {"height": 2, "width": 3},
    "Conv1D": {"filters": 4, "kernel_size": 2},
    "Conv1DTranspose": {"filters": 4, "kernel_size": 2},
    "Conv2D": {"filters": 4, "kernel_size": 2},
    "Conv2DTranspose": {"filters": 4, "kernel_size": 2},
    "Conv3D": {"filters": 4, "kernel_size": 2},
    "Conv3DTranspose": {"filters": 4, "kernel_size": 2},
    "ConvLSTM1D": {"filters": 4, "kernel_size": 2},
    "ConvLSTM2D": {"filters": 4, "kernel_size": 2},
    "ConvLSTM3D": {"filters": 4, "kernel_size": 2},
    "Dense": {"units": 2},
    "DepthwiseConv1D": {"kernel_size": 2},
    "DepthwiseConv2D": {"kernel_size": 2},
    "Dot": {"axes": 1},
    "Dropout": {"rate": 0.5},
    "EinsumDense": {"equation": "ab,bc->ac", "output_shape": 4},
    "Embedding": {"input_dim": 10, "output_dim": 4},
    "GRU": {"units": 2},
    "GRUCell": {"units": 2},
    "GaussianDropout": {"rate": 0.5},
    "GaussianNoise": {"stddev": 0.5},
    "GroupedQueryAttention": {"head_dim": 2, "num_query_heads": 4, "num_key_value_heads": 2},
    "HashedCrossing": {"num_bins": 4},
    "Hashing": {"num_bins": 4},
    "InputLayer": {"shape": (3,)},
    "LSTM": {"units": 2},
    "LSTMCell": {"units": 2},
    "Lambda": {"function": tripod.activations.relu},
    "MaxNumBoundingBoxes": {"max_number": 4},
    "MultiHeadAttention": {"num_heads": 2, "key_dim": 2},
    "Permute": {"dims": (2, 1)},
    "Pipeline": {"layers": Fresh(lambda: [layers.Rescaling(0.5, name="inner")])},
    "RNN": {"cell": Fresh(lambda: layers.LSTMCell(2, name="inner"))},
    "RandomBrightness": {"factor": 0.5},
    "RandomColorDegeneration": {"factor": 0.5},
    "RandomContrast": {"factor": 0.5},
    "RandomCrop": {"height": 2, "width": 3},
    "RandomHue": {"factor": 0.5},
    "RandomPosterization": {"factor": 4},
    "RandomRotation": {"factor": 0.5},
    "RandomSaturation": {"factor": 0.5},
    "RandomSharpness": {"factor": 0.5},
    "RandomTranslation": {"height_factor": 0.5, "width_factor": 0.5},
    "RandomZoom": {"height_factor": 0.5},
    "RepeatVector": {"n": 2},
    "Rescaling": {"scale": 0.5},
    "Reshape": {"target_shape": (2, 3)},
    "Resizing": {"height": 2, "width": 3},
    "ReversibleEmbedding": {"input_dim": 10, "output_dim": 4},
    "SeparableConv1D": {"filters": 4, "kernel_size": 2},
    "SeparableConv2D": {"filters": 4, "kernel_size": 2},
    "SimpleRNN": {"units": 2},
    "SimpleRNNCell": {"units": 2},
    "SpatialDropout1D": {"rate": 0.5},
    "SpatialDropout2D": {"rate": 0.5},
    "SpatialDropout3D": {"rate": 0.5},
    "SpectralNormalization": {"layer": _dense("inner")},
    "StackedRNNCells": {"cells": Fresh(lambda: [layers.LSTMCell(2, name="inner")])},
    "TimeDistributed": {"layer": _dense("inner")},
    "Wrapper": {"layer": _dense("inner")},
}

#: non-default values by argument name, for arguments whose default (None or a string) gives no
#: obvious other value; bools, numbers and tuples of them are changed by `_shifted`
BY_NAME = {
    "activation": "relu",
    "recurrent_activation": "relu",
    "data_format": "channels_first",
    "padding": "same",
    "interpolation": "nearest",
    "fill_mode": "constant",
    "seed": 7,
    "strides": 1,
    "noise_shape": (None, 1),
    "output_padding": 0,
    "value_dim": 3,
    "output_shape": 3,
    "attention_axes": (1,),
    "sliding_window": 2,
    "flash_attention": True,
    "max_value": 6.0,
    "shared_axes": (1,),
    "max_tokens": 5,
    "mask_token": 0,
    "vocabulary": [3, 4, 5],
    "salt": 3,
    "mask_value": 0,
    "num_bins": 4,
    "bin_boundaries": [0.0, 1.0],
    "ngrams": 2,
    "output_sequence_length": 4,
    "sequence_length": 64,
    "max_freq": 4000.0,
    "frame_step": 64,
    "fft_length": 512,
    "window": "hamming",
    "mode": "horizontal",
    "score_mode": "concat",
    "merge_mode": "sum",
    "output_mode": "one_hot",
    "standardize": "lower",
    "split": "character",
    "scaling": "spectrum",
    "fill_value": 0.5,
    "encoding": "latin-1",
    "vocabulary_dtype": "int32",
    "brightness_factor": 0.5,
    "contrast_factor": 0.5,
    "saturation_factor": 0.5,
    "hue_factor": 0.5,
    "reverse_dtype": "float16",
    "logit_soft_cap": 2.0,
    "width_factor": 0.25,
}
_LOOKUP_IDF = Joint(vocabulary=[3, 4, 5], idf_weights=[1.0, 2.0, 3.0], output_mode="tf_idf")
_STRING_IDF = Joint(vocabulary=["a", "b"], idf_weights=[1.0, 2.0], output_mode="tf_idf")
#: non-default values for one class's argument (class name, argument name)
BY_CLASS = {
    ("Activation", "activation"): "sigmoid",
    ("Bidirectional", "layer"): Fresh(lambda: layers.GRU(2, name="inner")),
    ("Bidirectional", "backward_layer"): Fresh(
        lambda: layers.LSTM(2, go_backwards=True, name="backward")
    ),
    ("Dot", "axes"): (1, 2),
    ("EinsumDense", "equation"): "ab,bc->ca",
    ("EinsumDense", "bias_axes"): "c",
    ("Lambda", "function"): tripod.activations.tanh,
    ("Lambda", "output_shape"): (3,),
    ("Lambda", "mask"): tripod.activations.sigmoid,
    ("Lambda", "arguments"): {"alpha": 0.5},
    ("Permute", "dims"): (1, 2),
    ("Pipeline", "layers"): Fresh(lambda: [layers.Rescaling(2.0, name="inner")]),
    ("RNN", "cell"): Fresh(lambda: layers.GRUCell(2, name="inner")),
    ("StackedRNNCells", "cells"): Fresh(
        lambda: [layers.GRUCell(2, name="inner"), layers.GRUCell(3, name="second")]
    ),
    ("SpectralNormalization", "layer"): Fresh(lambda: layers.Dense(3, name="inner")),
    ("TimeDistributed", "layer"): Fresh(lambda: layers.Dense(3, name="inner")),
    ("Wrapper", "layer"): Fresh(lambda: layers.Dense(3, name="inner")),
    ("Reshape", "target_shape"): (3, 2),
    ("RandomPosterization", "factor"): 3,
    ("RandomGaussianBlur", "kernel_size"): 5,
    ("GroupedQueryAttention", "num_query_heads"): 6,
    ("GroupedQueryAttention", "num_key_value_heads"): 4,
    ("Normalization", "axis"): None,
    ("Hashing", "dtype"): "int32",  # int bins refuse a float dtype, as in Keras
    ("Normalization", "mean"): Joint(mean=0.5, variance=2.0),
    ("Normalization", "variance"): Joint(mean=0.5, variance=2.0),
    ("STFTSpectrogram", "mode"): "magnitude",
    ("RandomFlip", "mode"): "horizontal",
    ("UpSampling2D", "interpolation"): "bilinear",
    ("Resizing", "fill_mode"): "reflect",
    ("CategoryEncoding", "output_mode"): "count",
    ("InputLayer", "batch_size"): 2,
    ("InputLayer", "batch_shape"): Joint(shape=None, batch_shape=(2, 3)),
    ("IntegerLookup", "idf_weights"): _LOOKUP_IDF,
    ("IntegerLookup", "pad_to_max_tokens"): Joint(pad_to_max_tokens=True, max_tokens=5),
    ("IntegerLookup", "output_mode"): "multi_hot",
    ("Hashing", "output_mode"): "one_hot",
    ("StringLookup", "mask_token"): "[MASK]",
    ("StringLookup", "vocabulary"): ["a", "b"],
    ("StringLookup", "oov_token"): "[OOV]",
    ("StringLookup", "output_mode"): "multi_hot",
    ("StringLookup", "idf_weights"): _STRING_IDF,
    ("StringLookup", "pad_to_max_tokens"): Joint(pad_to_max_tokens=True, max_tokens=5),
    ("TextVectorization", "vocabulary"): ["a", "b"],
    ("TextVectorization", "output_mode"): "multi_hot",
    ("TextVectorization", "idf_weights"): Joint(
        vocabulary=["a", "b"], idf_weights=[1.0, 2.0], output_mode="tf_idf"
    ),
    ("TextVectorization", "pad_to_max_tokens"): Joint(
        pad_to_max_tokens=True, max_tokens=5, output_mode="multi_hot"
    ),
    ("MaxNumBoundingBoxes", "fill_value"): -2,
    ("Masking", "mask_value"): 0.5,
}
_POOLING = [f"{kind}Pooling{rank}D" for kind in ("Max", "Average") for rank in (1, 2, 3)]
_LOOKUPS = ("IntegerLookup", "StringLookup", "TextVectorization")
#: (class, argument) -> the config entries that argument changes, where not only its own
EXPECTED_KEYS = {
    # strides default to pool_size
    **{(cls, "pool_size"): {"pool_size", "strides"} for cls in _POOLING},
    # the backward layer is a copy of the forward one unless given
    ("Bidirectional", "layer"): {"layer", "backward_layer"},
    # value_dim defaults to key_dim
    ("MultiHeadAttention", "key_dim"): {"key_dim", "value_dim"},
    # sequence_length defaults to fft_length
    ("MelSpectrogram", "fft_length"): {"fft_length", "sequence_length"},
    ("InputLayer", "shape"): {"batch_shape"},
    ("InputLayer", "batch_size"): {"batch_shape"},
    ("InputLayer", "batch_shape"): {"batch_shape"},
    # the default dtype follows output_mode (int64 bins, floatx encodings), as in Keras
    **{(cls, "output_mode"): {"output_mode", "dtype"} for cls in ("Hashing", "HashedCrossing")},
    ("Normalization", "mean"): {"mean", "variance"},
    ("Normalization", "variance"): {"mean", "variance"},
    # the config reports the vocabulary size, which the reserved tokens and vocabulary change
    **{
        (cls, arg): {arg, "vocabulary_size"}
        for cls in _LOOKUPS
        for arg in ("num_oov_indices", "mask_token", "vocabulary")
    },
    ("TextVectorization", "output_mode"): {"output_mode", "vocabulary_size"},
    **{
        (cls, "idf_weights"): {"vocabulary", "idf_weights", "output_mode", "vocabulary_size"}
        for cls in _LOOKUPS
    },
    **{(cls, "pad_to_max_tokens"): {"pad_to_max_tokens", "max_tokens"} for cls in _LOOKUPS},
    ("TextVectorization", "pad_to_max_tokens"): {
        "pad_to_max_tokens",
        "max_tokens",
        "output_mode",
        "vocabulary_size",
    },
}
_UNSUPPORTED = "tripod rejects it with a clear error (docs/differences.md)"
_QUANTIZATION = "a LoRA/quantization setting, tested in tests/layers/quantization"
_NO_TRAINABLE = "like Keras's, the constructor takes no `trainable` (no **kwargs)"
#: (class, argument) -> why the argument is not swept
NOT_SWEPT = {
    ("BatchNormalization", "renorm"): _UNSUPPORTED,
    ("BatchNormalization", "renorm_clipping"): "only read with renorm=True, " + _UNSUPPORTED,
    ("BatchNormalization", "renorm_momentum"): "only read with renorm=True, " + _UNSUPPORTED,
    **{(cls, "lora_rank"): _QUANTIZATION for cls in ("Dense", "EinsumDense", "Embedding")},
    **{(cls, "lora_alpha"): _QUANTIZATION for cls in ("Dense", "EinsumDense", "Embedding")},
    **{
        (cls, "quantization_config"): _QUANTIZATION for cls in ("Dense", "EinsumDense", "Embedding")
    },
    ("EinsumDense", "gptq_unpacked_column_size"): "a quantization setting, " + _UNSUPPORTED,
    **{
        (cls, "sparse"): _UNSUPPORTED
        for cls in (
            "CategoryEncoding",
            "Discretization",
            "HashedCrossing",
            "Hashing",
            "IntegerLookup",
            "StringLookup",
            "TextVectorization",
        )
    },
    ("TextVectorization", "ragged"): _UNSUPPORTED,
    ("InputLayer", "sparse"): _UNSUPPORTED,
    ("InputLayer", "ragged"): _UNSUPPORTED,
    ("Bidirectional", "weights"): "initial weight values, set when built: not config (as Keras)",
    ("Embedding", "weights"): "initial weight values, set when built: not config (as Keras)",
    ("InputLayer", "input_tensor"): "a symbolic tensor: its shape and dtype are the config",
    ("InputLayer", "trainable"): "Keras's InputLayer config holds no `trainable` (no weights)",
    ("HashedCrossing", "trainable"): "Keras's HashedCrossing config holds no `trainable`",
    ("GRU", "use_cudnn"): "accepted for Keras compatibility and not in its config, as in Keras",
    ("LSTM", "use_cudnn"): "accepted for Keras compatibility and not in its config, as in Keras",
    **{
        (cls, "flash_attention"): "a kernel choice made per call, not in Keras's config either"
        for cls in ("MultiHeadAttention", "GroupedQueryAttention")
    },
    ("IntegerLookup", "oov_method"): "'floormod' is the only method tripod provides",
    **{(cls, "trainable"): _NO_TRAINABLE for cls in ("Discretization", "Pipeline")},
    **{(f"SpatialDropout{rank}D", "trainable"): _NO_TRAINABLE for rank in (1, 2, 3)},
    ("Pipeline", "dtype"): "like Keras's, the constructor takes no `dtype`",
}


def _layer_classes():
    found = {
        value
        for value in vars(layers).values()
        if inspect.isclass(value) and issubclass(value, layers.Layer)
    }
    return sorted(
        (cls for cls in found if cls.__name__ not in NATIVE_WRAPPERS), key=lambda c: c.__name__
    )


CLASSES = _layer_classes()


def _build(cls, **overrides):
    arguments = {"name": "round_trip", **REQUIRED.get(cls.__name__, {}), **overrides}
    return cls(**{key: _value(value) for key, value in arguments.items()})


def _plain(value):
    """`value` with arrays and tuples as lists, as JSON holds it."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    return value


def _assert_round_trips(cls, config):
    """`cls.from_config(config)` has the same config, also when `config` went through JSON."""
    assert _plain(cls.from_config(config).get_config()) == _plain(config)
    loaded = json.loads(json.dumps(_plain(config)))
    assert _plain(cls.from_config(loaded).get_config()) == _plain(config)


def _shifted(value):
    """A different value of the same kind as `value`, or None when there is no obvious one."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value / 2 if value else 0.25
    if isinstance(value, tuple) and value:
        parts = tuple(_shifted(v) for v in value)
        return None if any(p is None for p in parts) else parts
    return None


def _non_default(cls, name, default):
    """The arguments of the case that sweeps `name`: a value other than its default (or than
    its required value), with any argument it needs; a class's own value comes first."""
    value = BY_CLASS.get((cls.__name__, name))
    if value is None and name in COMMON:
        return {name: COMMON[name]}
    base = REQUIRED.get(cls.__name__, {}).get(name, default)
    if value is None:
        value = _shifted(base)
    if value is None and name.endswith("_initializer"):
        value = "he_uniform"
    if value is None and name.endswith("_regularizer"):
        value = "l2"
    if value is None and name.endswith("_constraint"):
        value = "non_neg"
    if value is None:
        value = BY_NAME.get(name)
    if value is None:
        pytest.fail(f"give {cls.__name__}({name}=...) a non-default value in BY_CLASS")
    return value.kwargs if isinstance(value, Joint) else {name: value}


def _sweep():
    """(class, argument, default) for every constructor argument of every class, and the
    arguments of `COMMON`, except those in `NOT_SWEPT`."""
    cases = []
    for cls in CLASSES:
        params = {
            p.name: p.default
            for p in inspect.signature(cls.__init__).parameters.values()
            if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        }
        for name in COMMON:
            params.setdefault(name, None)
        cases += [
            pytest.param(cls, name, default, id=f"{cls.__name__}-{name}")
            for name, default in params.items()
            if (cls.__name__, name) not in NOT_SWEPT
        ]
    return cases


@pytest.mark.parametrize("cls", CLASSES, ids=[c.__name__ for c in CLASSES])
def test_config_round_trips(cls):
    _assert_round_trips(cls, _build(cls).get_config())


@pytest.mark.parametrize("cls, name, default", _sweep())
def test_a_non_default_argument_reaches_its_own_config_entry(cls, name, default):
    arguments = _non_default(cls, name, default)
    default_config = _plain(_build(cls).get_config())
    config = _build(cls, **arguments).get_config()
    changed = {
        key
        for key in set(default_config) | set(config)
        if default_config.get(key) != _plain(config.get(key))
    }
    assert changed == EXPECTED_KEYS.get((cls.__name__, name), {name}), (
        f"{cls.__name__}({arguments}) changed the config entries {sorted(changed)}"
    )
    _assert_round_trips(cls, config)
