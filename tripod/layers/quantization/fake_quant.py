"""`fake_quant_with_min_max_vars`: quantize a float tensor onto the `num_bits` integer grid of
[min, max] and back, per tensor or per channel, with the straight-through gradient Keras 3 gives.

The range is first nudged so that 0.0 falls exactly on a level (as TensorFlow's fake-quant ops
and Keras do); values outside the nudged range clamp to its ends. Gradients: the inputs get the
upstream gradient where they lie within the nudged range (inclusive) and zero elsewhere; `min`
gets the sum of the upstream gradient where the inputs are at or below the nudged minimum, `max`
where they are at or above the nudged maximum (summed per channel with `axis`).
"""

from tripod.backends import active, dtypes
from tripod.backends.common.keras_tensor import any_symbolic
from tripod.layers.layer import Layer

ops = active()


def _nudged_range(low, high, num_bits, narrow_range):
    """(nudged_min, nudged_max, scale, inverse_scale) in float32 (or wider): the range moved so
    that its zero point is a whole level of [quant_min, 2^num_bits - 1]."""
    compute = dtypes.result_type(ops.dtype(low), "float32")
    low, high = ops.cast(low, compute), ops.cast(high, compute)
    quant_min, quant_max = (1 if narrow_range else 0), (1 << num_bits) - 1
    spread = ops.subtract(high, low)
    scale = ops.divide(spread, quant_max - quant_min)
    inverse_scale = ops.divide(quant_max - quant_min, spread)
    zero_point = ops.round(
        ops.clip(ops.subtract(quant_min, ops.divide(low, scale)), quant_min, quant_max)
    )
    nudged_min = ops.multiply(ops.subtract(quant_min, zero_point), scale)
    nudged_max = ops.multiply(ops.subtract(quant_max, zero_point), scale)
    return nudged_min, nudged_max, scale, inverse_scale


def _per_channel(value, axis, ndim):
    """`value` (one entry per channel) shaped to broadcast along `axis` of an `ndim`-D tensor;
    a per-tensor `value` (`axis` None) as it is."""
    if axis is None:
        return value
    shape = [1] * ndim
    shape[axis] = -1
    return ops.reshape(value, shape)


def _fake_quantize(x, nudged_min, nudged_max, scale, inverse_scale):
    """`x` clamped to the nudged range and rounded to its nearest level (ties up), in x's dtype."""
    quant_zero = ops.floor(ops.add(ops.multiply(ops.negative(nudged_min), inverse_scale), 0.5))
    clamped = ops.clip(ops.cast(x, ops.dtype(nudged_min)), nudged_min, nudged_max)
    levels = ops.multiply(ops.subtract(clamped, nudged_min), inverse_scale)
    levels = ops.floor(ops.add(ops.subtract(levels, quant_zero), 0.5))
    return ops.cast(ops.multiply(levels, scale), ops.dtype(x))


def _gradient_fn(x, low, high, nudged_min, nudged_max, axis):
    """The straight-through gradient of fake quantization: (d inputs, d min, d max)."""
    inside = ops.logical_and(ops.greater_equal(x, nudged_min), ops.less_equal(x, nudged_max))
    reduced = [i for i in range(len(x.shape)) if i != axis]

    def to_bound(mask, upstream, bound):
        """The upstream gradient where `mask` holds, summed to `bound`'s shape."""
        total = ops.sum(ops.where(mask, upstream, 0.0), axis=reduced if axis is not None else None)
        return ops.reshape(total, ops.shape(bound))

    def gradient(*args, upstream=None):
        upstream = args[0] if upstream is None else upstream
        return (
            ops.where(inside, upstream, 0.0),
            to_bound(ops.less_equal(x, nudged_min), upstream, low),
            to_bound(ops.greater_equal(x, nudged_max), upstream, high),
        )

    return gradient


def _fake_quant_fn(num_bits, narrow_range, axis):
    """The custom-gradient function `(inputs, min, max) -> fake-quantized inputs`."""

    @ops.custom_gradient
    def fake_quant(x, low, high):
        nudged_min, nudged_max, scale, inverse_scale = (
            _per_channel(v, axis, len(x.shape))
            for v in _nudged_range(low, high, num_bits, narrow_range)
        )
        outputs = _fake_quantize(x, nudged_min, nudged_max, scale, inverse_scale)
        return outputs, _gradient_fn(x, low, high, nudged_min, nudged_max, axis)

    return fake_quant


class FakeQuantWithMinMaxVars(Layer):
    """The node `fake_quant_with_min_max_vars` records when called on symbolic tensors."""

    def __init__(self, num_bits=8, narrow_range=False, axis=None, **kwargs):
        super().__init__(autocast=False, **kwargs)
        self.num_bits, self.narrow_range, self.axis = num_bits, narrow_range, axis
        self.built = True

    def call(self, inputs, min_vals, max_vals):
        return fake_quant_with_min_max_vars(
            inputs, min_vals, max_vals, self.num_bits, self.narrow_range, self.axis
        )

    def compute_output_shape(self, input_shape, *args):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update(num_bits=self.num_bits, narrow_range=self.narrow_range, axis=self.axis)
        return config


def fake_quant_with_min_max_vars(
    inputs, min_vals, max_vals, num_bits=8, narrow_range=False, axis=None
):
    """Fake-quantize `inputs`: clamp to [min, max] and round to `num_bits` levels, as floats.

    The range is nudged so 0.0 is exactly representable; the levels are `[0, 2^num_bits - 1]`
    (`[1, 2^num_bits - 1]` with `narrow_range`). Differentiable with respect to all three
    tensors (straight-through: inputs inside the range pass the gradient unchanged; `min_vals`
    and `max_vals` collect it from the inputs clamped to them), so the range can be trained.

    Args:
        inputs: a float tensor.
        min_vals: the range's minimum: a scalar, or one value per channel with `axis`.
        max_vals: the range's maximum, shaped like `min_vals`.
        num_bits: the bit width of the integer grid.
        narrow_range: leave out the lowest level (e.g. [1, 255] for 8 bits).
        axis: the channel axis of per-channel ranges; None for one range for the whole tensor.

    Returns:
        A tensor of `inputs`' shape and dtype.

    Examples:
        >>> x = np.array([-0.3, 0.05, 0.26, 0.9], dtype="float32")
        >>> y = tripod.quantizers.fake_quant_with_min_max_vars(x, 0.0, 0.6, num_bits=2)
        >>> [round(float(v), 6) for v in tripod.ops.convert_to_numpy(y)]
        [0.0, 0.0, 0.2, 0.6]
    """
    if any_symbolic((inputs, min_vals, max_vals), {}):
        return FakeQuantWithMinMaxVars(num_bits, narrow_range, axis)(inputs, min_vals, max_vals)
    inputs = ops.convert_to_tensor(inputs)
    min_vals, max_vals = ops.convert_to_tensor(min_vals), ops.convert_to_tensor(max_vals)
    axis = None if axis is None else axis % len(inputs.shape)
    return _fake_quant_fn(int(num_bits), narrow_range, axis)(inputs, min_vals, max_vals)
