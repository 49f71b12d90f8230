"""float8 training with delayed scaling, for `Dense` and `EinsumDense`.

The float weight stays; six float32 scalars and histories are added (Keras 3's names and order):
the scale and absolute-maximum history of the inputs, of the kernel and of the outputs'
gradient. Inputs and kernel are rounded through float8 e4m3 before the contraction, the
outputs' gradient through e5m2. In training, the backward pass hands each scale and history its
next value as its "gradient"; the variables are marked `overwrite_with_gradient`, so the
optimizer stores those values instead of stepping.
"""

from tripod.backends import active
from tripod.layers.dtype_policies import QuantizedFloat8DTypePolicy
from tripod.layers.quantization import quantizers, variables

ops = active()

_STATE = (
    "inputs_scale",
    "inputs_amax_history",
    "kernel_scale",
    "kernel_amax_history",
    "outputs_grad_scale",
    "outputs_grad_amax_history",
)
_FORWARD, _BACKWARD = "float8_e4m3fn", "float8_e5m2"
_LARGEST = {_FORWARD: 448.0, _BACKWARD: 57344.0}


def quantize(layer, kind, config):
    """Add the float8 scales and histories to `layer` (the float weight stays)."""
    length = getattr(
        layer._dtype_policy,
        "amax_history_length",
        QuantizedFloat8DTypePolicy.default_amax_history_length,
    )
    for name in _STATE:
        history = name.endswith("history")
        created = variables.add(
            layer,
            name=name,
            shape=(length,) if history else (),
            initializer="zeros" if history else "ones",
            dtype="float32",
            trainable=True,
            autocast=False,
            overwrite_with_gradient=True,
        )
        setattr(layer, name, created)


def state_variables(layer):
    """The six float8 variables, in Keras's saving order."""
    return [getattr(layer, name) for name in _STATE]


def _next_state(x, scale, history, fmt):
    """The next (scale, history) of delayed scaling after seeing tensor `x`."""
    new_scale = quantizers.compute_float8_scale(
        ops.max(history, axis=0), scale, ops.cast(_LARGEST[fmt], "float32")
    )
    return new_scale, quantizers.compute_float8_amax_history(x, history)


def _round_forward(layer, training):
    """Fake-quantize a tensor through e4m3; in training its scale and history get their next
    values as gradients."""

    @ops.custom_gradient
    def round_through(x, scale, history):
        if training:
            new_scale, new_history = _next_state(x, scale, history, _FORWARD)
        else:
            new_scale, new_history = ops.zeros_like(scale), ops.zeros_like(history)
        rounded = quantizers.quantize_and_dequantize(x, scale, _FORWARD, layer.compute_dtype)

        def gradient(*args, upstream=None):
            upstream = args[0] if upstream is None else upstream
            return upstream, new_scale, new_history

        return rounded, gradient

    return round_through


def _round_backward(layer):
    """Identity forward; the outputs' gradient is fake-quantized through e5m2 and the scale and
    history get their next values as gradients."""

    @ops.custom_gradient
    def round_gradient(y, scale, history):
        def gradient(*args, upstream=None):
            upstream = args[0] if upstream is None else upstream
            new_scale, new_history = _next_state(upstream, scale, history, _BACKWARD)
            rounded = quantizers.quantize_and_dequantize(
                upstream, scale, _BACKWARD, layer.compute_dtype
            )
            return rounded, new_scale, new_history

        return y, gradient

    return round_gradient


def call(layer, kind, inputs, training=None):
    """The layer's contraction with inputs and kernel rounded through float8."""
    state = [ops.convert_to_tensor(v.value) for v in state_variables(layer)]
    forward = _round_forward(layer, training)
    x = forward(inputs, state[0], state[1])
    kernel = forward(ops.convert_to_tensor(getattr(layer, kind.weight).value), state[2], state[3])
    return _round_backward(layer)(kind.project(layer, x, kernel), state[4], state[5])
