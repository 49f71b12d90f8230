"""What LoRA and quantization need to know about each layer they adapt: the weight's name, how
inputs contract with it, and where its int8 scale goes. One `Kind` per layer class
(`Dense`, `EinsumDense`, `Embedding`); the layer names its kind in `_quant_kind`.
"""

from tripod.backends import active
from tripod.layers.quantization.einsum_axes import EinsumPlan

ops = active()


class Kind:
    """The names of a layer's adapted weight and its LoRA, scale and settings attributes."""

    weight = "kernel"
    lora = ("lora_kernel_a", "lora_kernel_b")
    scale = "kernel_scale"
    has_bias = True
    #: whether inputs carry a gradient (float inputs) through the int8 contraction
    differentiable = True

    def prepare(self, layer, input_shape):
        """Record what the kind needs from the build's input shape (nothing by default)."""

    def project(self, layer, inputs, weight):
        """The layer's contraction of `inputs` with a float `weight`."""
        raise NotImplementedError

    def lora_project(self, layer, inputs, a, b):
        """The contraction of `inputs` with `a @ b` without forming it."""
        return ops.matmul(self.project(layer, inputs, a), b)

    def quantize_weight(self, layer, weight, quantizer):
        """`(int8 weight, stored scale)` of a float weight, per output channel."""
        raise NotImplementedError

    def dequantize(self, layer, quantized, scale):
        """The float weight an int8 weight and its stored scale stand for."""
        raise NotImplementedError

    def int8_project(self, layer, inputs, quantized, scale, input_quantizer):
        """The contraction with the int8 weight: quantized inputs (when `input_quantizer` is
        set) times the int8 weight in integers, then divided by both scales."""
        raise NotImplementedError

    def input_gradient(self, layer, upstream, weight):
        """The gradient of the contraction with respect to its inputs, for a float weight."""
        raise NotImplementedError


def _descale(layer, product, scale):
    """An integer contraction result in the compute dtype, divided by its scale."""
    return ops.divide(ops.cast(product, layer.compute_dtype), scale)


class DenseKind(Kind):
    """`Dense`: `inputs @ kernel`; one scale per unit, inputs scaled per row."""

    def project(self, layer, inputs, weight):
        return ops.matmul(inputs, weight)

    def quantize_weight(self, layer, weight, quantizer):
        quantized, scale = quantizer(weight, axis=0, to_numpy=True)
        return quantized, ops.squeeze(scale, 0)

    def dequantize(self, layer, quantized, scale):
        return _descale(layer, quantized, scale)

    def int8_project(self, layer, inputs, quantized, scale, input_quantizer):
        if input_quantizer is None:
            return ops.matmul(inputs, self.dequantize(layer, quantized, scale))
        inputs, inputs_scale = input_quantizer(inputs, axis=-1)
        return _descale(layer, ops.matmul(inputs, quantized), ops.multiply(scale, inputs_scale))

    def input_gradient(self, layer, upstream, weight):
        return ops.matmul(upstream, ops.transpose(weight))


class EinsumKind(Kind):
    """`EinsumDense`: `einsum(equation, inputs, kernel)`; scales over the contracted axes, kept
    in Keras's output-aligned layout (`einsum_axes`)."""

    def prepare(self, layer, input_shape):
        layer._einsum_plan = EinsumPlan(layer.equation, len(input_shape))

    def project(self, layer, inputs, weight):
        return ops.einsum(layer.equation, inputs, weight)

    def quantize_weight(self, layer, weight, quantizer):
        plan = layer._einsum_plan.kernel
        quantized, scale = quantizer(weight, axis=tuple(plan.reduced), to_numpy=True)
        return quantized, plan.align(scale)

    def dequantize(self, layer, quantized, scale):
        return _descale(layer, quantized, layer._einsum_plan.kernel.unalign(scale))

    def int8_project(self, layer, inputs, quantized, scale, input_quantizer):
        if input_quantizer is None:
            return self.project(layer, inputs, self.dequantize(layer, quantized, scale))
        plan = layer._einsum_plan.inputs
        inputs, inputs_scale = input_quantizer(inputs, axis=tuple(plan.reduced))
        product = ops.einsum(layer.equation, inputs, quantized)
        return _descale(layer, product, ops.multiply(plan.align(inputs_scale), scale))

    def input_gradient(self, layer, upstream, weight):
        return ops.einsum(layer._einsum_plan.gradient_equation, upstream, weight)


class EmbeddingKind(Kind):
    """`Embedding`: rows of the table; one scale per row (per vocabulary entry)."""

    weight = "embeddings"
    lora = ("lora_embeddings_a", "lora_embeddings_b")
    scale = "embeddings_scale"
    has_bias = False
    differentiable = False

    def project(self, layer, inputs, weight):
        return ops.take(weight, _indices(inputs), axis=0)

    def quantize_weight(self, layer, weight, quantizer):
        quantized, scale = quantizer(weight, axis=-1, to_numpy=True)
        return quantized, ops.squeeze(scale, -1)

    def dequantize(self, layer, quantized, scale):
        return _descale(layer, quantized, ops.expand_dims(scale, -1))

    def int8_project(self, layer, inputs, quantized, scale, input_quantizer):
        ids = _indices(inputs)
        rows = ops.take(quantized, ids, axis=0)
        return _descale(layer, rows, ops.expand_dims(ops.take(scale, ids, axis=0), -1))


def _indices(inputs):
    """Integer indices for a table lookup."""
    return inputs if ops.dtype(inputs) in ("int32", "int64") else ops.cast(inputs, "int32")


DENSE = DenseKind()
EINSUM = EinsumKind()
EMBEDDING = EmbeddingKind()
