"""int8 weights: the float weight becomes an int8 variable of the same name and shape plus a
float scale per output channel (`kernel_scale`, `embeddings_scale`), computed by absolute maximum.

The call quantizes the inputs per row the same way (the config's activation quantizer), contracts
in integers and divides by both scales. Training passes gradients to the inputs as if the weight
were its dequantized float value; the int8 weight itself is frozen (LoRA may train beside it).
"""

from tripod.backends import active
from tripod.layers.quantization import lora, variables
from tripod.layers.quantization.quantizers import AbsMaxQuantizer

ops = active()


def _weight_quantizer(config):
    """The config's weight quantizer, else abs-max (over the axes the kind gives)."""
    found = getattr(config, "weight_quantizer", None)
    return found if found is not None else AbsMaxQuantizer()


def input_quantizer(config):
    """The config's activation quantizer (None: weights-only); abs-max without a config."""
    if config is None:
        return AbsMaxQuantizer()
    return config.activation_quantizer


def quantize(layer, kind, config):
    """Replace `layer`'s float weight by its int8 form and its scale."""
    weight = getattr(layer, kind.weight)
    quantized, scale = kind.quantize_weight(layer, weight.value, _weight_quantizer(config))
    new = variables.add(
        layer,
        name=kind.weight,
        shape=tuple(weight.shape),
        initializer="zeros",
        dtype="int8",
        trainable=False,
    )
    new.assign(quantized)
    variables.replace(layer, kind.weight, new)
    stored = variables.add(
        layer,
        name=kind.scale,
        shape=tuple(scale.shape),
        initializer="ones",
        trainable=False,
    )
    stored.assign(scale)
    setattr(layer, kind.scale, stored)
    layer.inputs_quantizer = input_quantizer(config) if kind.differentiable else None


def call(layer, kind, inputs):
    """The contraction of `inputs` with the int8 weight (plus the LoRA term when enabled)."""
    quantized = ops.convert_to_tensor(getattr(layer, kind.weight).value)
    scale = ops.convert_to_tensor(getattr(layer, kind.scale).value)
    quantizer = layer.inputs_quantizer
    if kind.differentiable:
        outputs = _with_float_gradient(layer, kind, quantizer, quantized, scale)(inputs)
    else:
        outputs = kind.int8_project(layer, inputs, quantized, scale, quantizer)
    if layer.lora_enabled:
        outputs = ops.cast(ops.add(outputs, lora.project(layer, kind, inputs)), layer.compute_dtype)
    return outputs


def _with_float_gradient(layer, kind, quantizer, quantized, scale):
    """The int8 contraction as a function of the inputs whose gradient uses the dequantized
    weight (rounding has no useful gradient)."""

    @ops.custom_gradient
    def contract(inputs):
        def gradient(*args, upstream=None):
            upstream = args[0] if upstream is None else upstream
            return kind.input_gradient(layer, upstream, kind.dequantize(layer, quantized, scale))

        return kind.int8_project(layer, inputs, quantized, scale, quantizer), gradient

    return contract


def merged(layer, kind):
    """`(int8 weight, scale)` to save: with LoRA, the weight and update merged and quantized
    again (Keras's saved form); else the variables' values."""
    quantized = getattr(layer, kind.weight).value
    scale = getattr(layer, kind.scale).value
    if not layer.lora_enabled:
        return quantized, scale
    weight = ops.add(kind.dequantize(layer, quantized, scale), lora.delta(layer, kind))
    return kind.quantize_weight(layer, weight, _weight_quantizer(None))
