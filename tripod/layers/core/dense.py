"""`Dense`: activation(inputs @ kernel + bias)."""

from tripod.backends import active
from tripod.layers import activations, weight_settings
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer
from tripod.layers.quantization import Quantizable, kinds

ops = active()


class Dense(Quantizable, Layer):
    """A fully connected layer over the last axis: `activation(inputs @ kernel + bias)`.

    An input of shape `(batch, ..., d)` gives an output of shape `(batch, ..., units)`; the
    kernel has shape `(d, units)`, created on the first call.

    Args:
        units: int > 0, the size of the output's last axis.
        activation: an activation (or its name, e.g. "relu"); default None, linear.
        use_bias: bool, add a bias vector (default True).
        kernel_initializer: initializer (or its name) of the kernel; default "glorot_uniform".
        bias_initializer: initializer of the bias; default "zeros".
        kernel_regularizer: regularizer of the kernel, its penalty added to `losses`.
        bias_regularizer: regularizer of the bias.
        activity_regularizer: regularizer of the output.
        kernel_constraint: constraint applied to the kernel after each update.
        bias_constraint: constraint applied to the bias after each update.
        lora_rank: int, enable LoRA of this rank when the layer is built (see `enable_lora`).
        lora_alpha: float, the LoRA scale numerator (default `lora_rank`).
        quantization_config: a `tripod.quantizers.QuantizationConfig` used when the dtype
            policy is quantized (e.g. `"int8_from_float32"`).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `units` is not a positive integer, or the input's last axis is unknown.

    Examples:
        >>> dense = tripod.layers.Dense(2, kernel_initializer="ones")
        >>> print(tripod.ops.convert_to_numpy(dense(np.array([[1.0, 2.0, 3.0]]))))
        [[6. 6.]]
        >>> tuple(dense.kernel.shape), tuple(dense.bias.shape)
        ((3, 2), (2,))
    """

    _quant_kind = kinds.DENSE

    def __init__(
        self,
        units,
        activation=None,
        use_bias=True,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        lora_rank=None,
        lora_alpha=None,
        quantization_config=None,
        **kwargs,
    ):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if not isinstance(units, int) or isinstance(units, bool) or units <= 0:
            raise ValueError(
                f"Dense '{self.name}': units must be a positive integer, received {units!r}."
            )
        self._init_quantization(lora_rank, lora_alpha, quantization_config)
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
                f"Dense '{self.name}': the last input dimension must be known, received shape "
                f"{input_shape}."
            )
        self.kernel = weight_settings.add(self, "kernel", (input_dim, self.units))
        self.bias = weight_settings.add(self, "bias", (self.units,)) if self.use_bias else None
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})
        self._linear = self.activation is activations.linear
        self.built = True
        self._finish_build(input_shape)

    def call(self, inputs, training=None):
        adapted = self._adapted  # LoRA or quantization (tripod.layers.quantization)
        bias = self.bias
        if adapted is not None:
            x = adapted(self, inputs, training)
            x = x if bias is None else ops.add(x, bias.value)
        elif bias is None:
            x = ops.matmul(inputs, self.kernel.value)
        else:
            x = ops.matmul_with_bias(inputs, self.kernel.value, bias.value)
        return x if self._linear else self.activation(x)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self):
        return {
            **super().get_config(),
            "units": self.units,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            **weight_settings.config(self, "kernel", "bias", "activity"),
            **self._quantization_config_entries(),
        }
