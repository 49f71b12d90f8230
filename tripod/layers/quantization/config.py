"""Quantization configs: which quantizers a mode uses for weights and for activations."""

from tripod.layers.dtype_policies import QUANTIZATION_MODES
from tripod.layers.quantization.quantizers import AbsMaxQuantizer
from tripod.saving import registry, serialization


class QuantizationConfig:
    """Base of the quantization configs: a weight quantizer and an activation quantizer
    (None: the mode's default for weights, no quantization for activations)."""

    def __init__(self, weight_quantizer=None, activation_quantizer=None):
        self.weight_quantizer = weight_quantizer
        self.activation_quantizer = activation_quantizer

    @property
    def mode(self):
        """The quantization mode the config is for; a subclass names it."""
        raise NotImplementedError(
            "QuantizationConfig is a base class: use Int8QuantizationConfig or "
            "Float8QuantizationConfig."
        )

    def get_config(self):
        """The quantizers, serialized."""
        return {
            "weight_quantizer": serialization.serialize_keras_object(self.weight_quantizer),
            "activation_quantizer": serialization.serialize_keras_object(self.activation_quantizer),
        }

    @classmethod
    def from_config(cls, config):
        """A config from `get_config()`'s output."""
        return cls(
            weight_quantizer=serialization.deserialize_keras_object(config.get("weight_quantizer")),
            activation_quantizer=serialization.deserialize_keras_object(
                config.get("activation_quantizer")
            ),
        )


class Int8QuantizationConfig(QuantizationConfig):
    """int8 weights; activations quantized per row by absolute maximum unless
    `activation_quantizer` says otherwise (None: weights-only)."""

    def __init__(self, weight_quantizer=None, activation_quantizer="default"):
        if isinstance(activation_quantizer, str) and activation_quantizer == "default":
            activation_quantizer = AbsMaxQuantizer()
        super().__init__(weight_quantizer, activation_quantizer)
        if weight_quantizer is not None and weight_quantizer.output_dtype != "int8":
            raise ValueError(
                "Int8QuantizationConfig needs a weight_quantizer with output_dtype 'int8', "
                f"received {weight_quantizer.output_dtype!r}."
            )

    @property
    def mode(self):
        """ "int8"."""
        return "int8"


class Float8QuantizationConfig(QuantizationConfig):
    """float8 training (delayed scaling); it takes no quantizers."""

    def __init__(self):
        super().__init__(None, None)

    @property
    def mode(self):
        """ "float8"."""
        return "float8"

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls()


for _cls in (QuantizationConfig, Int8QuantizationConfig, Float8QuantizationConfig):
    registry.register_builtin(_cls, "keras.quantizers")

_DEFAULTS = {"int8": Int8QuantizationConfig, "float8": Float8QuantizationConfig}


def resolve(mode, config):
    """The config for `quantize(mode, config)`: the mode's default when `config` is None, the
    config's mode when `mode` is None; a mode outside tripod's is an error."""
    if isinstance(config, str):
        mode, config = config, None
    if isinstance(config, dict):
        config = serialization.deserialize_keras_object(config)
    if config is not None:
        if mode is not None and mode != config.mode:
            raise ValueError(
                f"quantize: mode {mode!r} does not match the config's mode {config.mode!r}."
            )
        return config
    if mode not in QUANTIZATION_MODES:
        raise ValueError(
            f"Invalid quantization mode {mode!r}: tripod supports {QUANTIZATION_MODES} "
            "(Keras 3's int4, gptq and awq modes are not in tripod yet)."
        )
    return _DEFAULTS[mode]()
