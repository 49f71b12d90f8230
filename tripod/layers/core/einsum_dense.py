"""`EinsumDense`: a dense layer whose contraction is any einsum equation with a kernel."""

import re

import numpy as np

from tripod.backends import active
from tripod.layers import activations, initializers, weight_settings
from tripod.layers.layer import Layer
from tripod.layers.quantization import Quantizable, kinds

ops = active()

_EQUATION = re.compile(
    r"([a-zA-Z]*(?:\.\.\.)?[a-zA-Z]*),([a-zA-Z]+)->([a-zA-Z]*(?:\.\.\.)?[a-zA-Z]*)"
)


def _letter_dims(spec, shape):
    """Letter -> size for an input spec (letters around an optional '...') and its shape."""
    head, _, tail = spec.partition("...")
    dims = dict(zip(head, shape[: len(head)]))
    dims.update(zip(tail, shape[len(shape) - len(tail) :]))
    return dims


def _matmul_form(specs):
    """How many trailing input axes the equation contracts when it is a plain matrix product
    (input `L+C`, kernel `C+F`, output `L+F`, letters in order): then the layer runs one matmul
    with its bias fused (one `addmm` on torch) instead of an einsum and an add. None otherwise."""
    spec_in, spec_kernel, spec_out = specs
    letters_in = set(spec_in.replace("...", ""))
    contracted = "".join(c for c in spec_kernel if c in letters_in)
    free = spec_kernel[len(contracted) :]
    lead = spec_in[: len(spec_in) - len(contracted)]
    plain = (
        contracted
        and free
        and spec_kernel == contracted + free
        and spec_in.endswith(contracted)
        and spec_out == lead + free
        and not set(free) & letters_in
    )
    return len(contracted) if plain else None


class _Plan:
    """The shapes an equation implies for one input shape: kernel, bias and full output."""

    def __init__(self, layer, input_shape):
        equation, name = layer.equation, f"EinsumDense '{layer.name}'"
        spec_in, spec_kernel, spec_out = layer._specs
        letters_in, letters_out = spec_in.replace("...", ""), spec_out.replace("...", "")
        rank = len(input_shape)
        if rank < len(letters_in) or ("..." not in spec_in and rank != len(letters_in)):
            raise ValueError(
                f"{name}: the equation {equation!r} does not fit an input of shape "
                f"{tuple(input_shape)}."
            )
        in_dims = _letter_dims(spec_in, input_shape)
        described = letters_out if spec_out.startswith("...") else letters_out[1:]
        if len(described) != len(layer.partial_output_shape):
            raise ValueError(
                f"{name}: output_shape {layer.partial_output_shape} must give the {len(described)} "
                "output "
                f"dimension(s) {described!r} of {equation!r} (all but the batch and '...')."
            )
        out_dims = {}
        for letter, size in zip(described, layer.partial_output_shape):
            known = in_dims.get(letter)
            if size is not None and known is not None and size != known:
                raise ValueError(
                    f"{name}: input shape and output shape do not match at shared dimension "
                    f"{letter!r}: the input has {known}, output_shape has {size}."
                )
            out_dims[letter] = known if size is None else size
        self.kernel_shape = []
        for letter in spec_kernel:
            size = in_dims[letter] if letter in in_dims else out_dims.get(letter)
            if size is None:
                raise ValueError(
                    f"{name}: kernel dimension {letter!r} of {equation!r} must be an input "
                    f"dimension of known size or be given in output_shape (input shape "
                    f"{tuple(input_shape)}, output_shape {layer.partial_output_shape})."
                )
            self.kernel_shape.append(size)
        kernel_dims = dict(zip(spec_kernel, self.kernel_shape))
        self.input_axes = [i for i, c in enumerate(spec_kernel) if c in in_dims]
        self.output_axes = [i for i, c in enumerate(spec_kernel) if c not in in_dims]
        ellipsis = tuple(
            input_shape[len(spec_in.partition("...")[0]) : rank - len(spec_in.partition("...")[2])]
        )
        head, _, tail = spec_out.partition("...")
        pick = [out_dims.get(c, in_dims.get(c, kernel_dims.get(c))) for c in head + tail]
        self.output_shape = (
            tuple(pick[: len(head)])
            + (ellipsis if "..." in spec_out else ())
            + tuple(pick[len(head) :])
        )
        self.bias_shape = self._bias_shape(layer, name, spec_out, head, tail)

    def _bias_shape(self, layer, name, spec_out, head, tail):
        """Sizes from the first bias axis to the end of the output, 1 on non-bias axes."""
        if not layer.bias_axes:
            return None
        for letter in layer.bias_axes:
            if letter not in head + tail:
                raise ValueError(
                    f"{name}: bias axis {letter!r} is not part of the output spec {spec_out!r}."
                )
        letters = (
            list(head) + [None] * (len(self.output_shape) - len(head) - len(tail)) + list(tail)
        )
        first = min(letters.index(c) for c in layer.bias_axes)
        return tuple(
            size if letter is not None and letter in layer.bias_axes else 1
            for letter, size in zip(letters[first:], self.output_shape[first:])
        )


class EinsumDense(Quantizable, Layer):
    """A dense layer with any einsum contraction: `activation(einsum(equation, inputs, kernel)
    + bias)`.

    The equation names the axes of the input, the kernel and the output, e.g. "ab,bc->ac" is
    `Dense` and "abc,cde->abde" projects the features of a sequence onto (heads, size). The
    kernel's shape is read, on the first call, from the input shape (letters shared with the
    input) and `output_shape` (the other letters). LoRA and quantization work as in `Dense`
    (`enable_lora`, `quantize`).

    Args:
        equation: str, "input,kernel->output" subscripts, e.g. "ab,bc->ac"; "..." may stand for
            any leading axes, in both the input and the output.
        output_shape: int or tuple, the sizes of the output letters but the first (the batch
            axis), or of all of them when the output spec starts with "..."; None where a
            letter's size is the input's.
        activation: an activation (or its name) applied to the output; default None, linear.
        bias_axes: str, the output letters the bias spans (e.g. "c"); default None, no bias.
        kernel_initializer: initializer of the kernel; default "glorot_uniform" (its fans
            counted over the equation's input and output axes).
        bias_initializer: initializer of the bias; default "zeros".
        kernel_regularizer: regularizer of the kernel, its penalty added to `losses`.
        bias_regularizer: regularizer of the bias.
        kernel_constraint: constraint applied to the kernel after each update.
        bias_constraint: constraint applied to the bias after each update.
        lora_rank: int, enable LoRA of this rank when the layer is built (see `enable_lora`).
        lora_alpha: float, the LoRA scale numerator (default `lora_rank`).
        gptq_unpacked_column_size: accepted for Keras compatibility; must be None (GPTQ is not
            supported).
        quantization_config: a `tripod.quantizers.QuantizationConfig` used when the dtype
            policy is quantized (e.g. `"int8_from_float32"`).
        **kwargs: the `Layer` arguments (name, dtype, trainable, activity_regularizer, ...).

    Raises:
        ValueError: a malformed `equation`; on the first call, an input shape or
            `output_shape` that does not fit the equation, or a `bias_axes` letter not in the
            output.
        NotImplementedError: `gptq_unpacked_column_size` is given.

    Examples:
        >>> dense = tripod.layers.EinsumDense("ab,bc->ac", output_shape=4, bias_axes="c")
        >>> tuple(dense(np.ones((2, 3))).shape), tuple(dense.kernel.shape), tuple(dense.bias.shape)
        ((2, 4), (3, 4), (4,))
        >>> heads = tripod.layers.EinsumDense("abc,cde->abde", output_shape=(None, 2, 4))
        >>> tuple(heads(np.ones((2, 5, 8))).shape), tuple(heads.kernel.shape)
        ((2, 5, 2, 4), (8, 2, 4))
    """

    _quant_kind = kinds.EINSUM

    def __init__(
        self,
        equation,
        output_shape,
        activation=None,
        bias_axes=None,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        kernel_constraint=None,
        bias_constraint=None,
        lora_rank=None,
        lora_alpha=None,
        gptq_unpacked_column_size=None,
        quantization_config=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        match = _EQUATION.fullmatch(equation) if isinstance(equation, str) else None
        if match is None or ("..." in match[1]) != ("..." in match[3]):
            raise ValueError(
                f"EinsumDense '{self.name}': equation must look like 'ab,bc->ac' (with '...' in "
                f"both the input and the output, or in neither), received {equation!r}."
            )
        if gptq_unpacked_column_size is not None:
            raise NotImplementedError(
                f"EinsumDense '{self.name}': GPTQ quantization is not supported yet."
            )
        self._init_quantization(lora_rank, lora_alpha, quantization_config)
        self.equation = equation
        self._specs = match.groups()  # input, kernel and output subscripts
        self.partial_output_shape = (
            (output_shape,) if isinstance(output_shape, int) else tuple(output_shape)
        )
        self.activation = activations.get(activation)
        self.bias_axes = bias_axes
        weight_settings.resolve(
            self, "kernel", kernel_initializer, kernel_regularizer, kernel_constraint
        )
        weight_settings.resolve(self, "bias", bias_initializer, bias_regularizer, bias_constraint)

    def build(self, input_shape):
        plan = _Plan(self, input_shape)
        self.kernel = weight_settings.add(
            self, "kernel", plan.kernel_shape, initializer=self._kernel_init(plan)
        )
        self.bias = None
        if plan.bias_shape is not None:
            self.bias = weight_settings.add(self, "bias", plan.bias_shape)
        self._linear = self.activation is activations.linear
        self._matmul = self._matmul_plan(plan)
        self.built = True
        self._finish_build(input_shape)

    def _kernel_init(self, plan):
        """A fan-based initializer counts the kernel's input and output axes of the equation."""
        init = self.kernel_initializer
        if (
            isinstance(init, initializers.VarianceScaling)
            and init.input_axes is None
            and init.output_axes is None
        ):
            return type(init).from_config(
                {
                    **init.get_config(),
                    "input_axes": plan.input_axes,
                    "output_axes": plan.output_axes,
                }
            )
        return init

    def _matmul_plan(self, plan):
        """(contracted axes, kernel as a matrix shape, free output sizes) when the equation is a
        plain matrix product whose bias (if any) spans every free axis; None otherwise."""
        contracted = _matmul_form(self._specs)
        if contracted is None:
            return None
        free = tuple(plan.kernel_shape[contracted:])
        if plan.bias_shape is not None and tuple(plan.bias_shape) != free:
            return None
        size = int(np.prod(plan.kernel_shape[:contracted]))
        return contracted, (size, int(np.prod(free))), free

    def call(self, inputs, training=None):
        adapted = self._adapted  # LoRA or quantization (tripod.layers.quantization)
        if adapted is None and self._matmul is not None:
            x = self._matmul_call(inputs)
        else:
            if adapted is None:
                x = ops.einsum(self.equation, inputs, self.kernel.value)
            else:
                x = adapted(self, inputs, training)
            if self.bias is not None:
                x = ops.add(x, self.bias.value)
        return x if self._linear else self.activation(x)

    def _matmul_call(self, inputs):
        """The equation as one matmul of the inputs (contracted axes flattened) by the kernel as
        a matrix, the bias added in the same op."""
        contracted, matrix, free = self._matmul
        shape = ops.shape(inputs)
        lead = tuple(shape[: len(shape) - contracted])
        if contracted > 1:
            inputs = ops.reshape(inputs, lead + (matrix[0],))
        kernel = _in_shape(self.kernel, matrix)
        if self.bias is None:
            x = ops.matmul(inputs, kernel)
        else:
            x = ops.matmul_with_bias(inputs, kernel, _in_shape(self.bias, (matrix[1],)))
        return ops.reshape(x, lead + free) if len(free) > 1 else x

    def compute_output_shape(self, input_shape):
        return _Plan(self, input_shape).output_shape

    def get_config(self):
        return {
            **super().get_config(),
            "output_shape": self.partial_output_shape,
            "equation": self.equation,
            "activation": activations.serialize(self.activation),
            "bias_axes": self.bias_axes,
            **weight_settings.config(self, "kernel", "bias", "activity"),
            **self._quantization_config_entries(),
        }


def _in_shape(variable, shape):
    """`variable`'s value in `shape`, reshaped only when it is not already (the usual case)."""
    value = variable.value
    return value if tuple(variable.shape) == shape else ops.reshape(value, shape)
