"""`Dense`: activation(inputs @ kernel + bias)."""

from tripod.backends import active
from tripod.layers import activations, weight_settings
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer

ops = active()


class Dense(Layer):
    """A fully connected layer over the last axis of its input."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 lora_rank=None, lora_alpha=None, quantization_config=None, **kwargs):  # fmt: skip
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if not isinstance(units, int) or isinstance(units, bool) or units <= 0:
            raise ValueError(
                f"Dense '{self.name}': units must be a positive integer, received {units!r}."
            )
        if lora_rank is not None or quantization_config is not None:
            raise NotImplementedError(
                f"Dense '{self.name}': LoRA and quantization are not supported yet."
            )
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        weight_settings.resolve(
            self, "kernel", kernel_initializer, kernel_regularizer, kernel_constraint
        )
        weight_settings.resolve(self, "bias", bias_initializer, bias_regularizer, bias_constraint)
        self.input_spec = InputSpec(min_ndim=2)
        self.supports_masking = True

    def build(self, input_shape):
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError(
                f"Dense '{self.name}': the last input dimension must be known, received shape {input_shape}."
            )
        self.kernel = weight_settings.add(self, "kernel", (input_dim, self.units))
        self.bias = weight_settings.add(self, "bias", (self.units,)) if self.use_bias else None
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})
        self._linear = self.activation is activations.linear
        self.built = True

    def call(self, inputs, training=None):
        x = ops.matmul(inputs, self.kernel.value)
        bias = self.bias
        if bias is not None:
            x = ops.add(x, bias.value)
        return x if self._linear else self.activation(x)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self):
        return {
            **super().get_config(),
            "units": self.units,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            **weight_settings.config(self, "kernel", "bias"),
            "quantization_config": None,
        }
