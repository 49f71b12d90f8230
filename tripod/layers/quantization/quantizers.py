"""`tripod.quantizers`: quantization functions and quantizer objects, written in `tripod.ops`.

`abs_max_quantize` maps a tensor to int8 with one scale per slice (the scale is
`127 / max|x|` over the reduced axes); `quantize_and_dequantize` rounds a tensor through a float8
format; `compute_float8_scale` / `compute_float8_amax_history` keep the delayed scaling state of
float8 training. tripod has no float8 dtype: the float8 rounding is computed in float32 (round to
nearest even on the format's grid, saturated at its largest value), which gives the same values a
cast to float8 and back gives.
"""

import numpy as np

from tripod.backends import active, config, dtypes
from tripod.saving import registry, serialization

ops = active()

#: float8 formats: (mantissa bits, smallest normal exponent, largest finite value)
_FLOAT8 = {
    "float8_e4m3fn": (3, -6, 448.0),
    "float8_e5m2": (2, -14, 57344.0),
}


def _axes(axis, ndim):
    """`axis` (an int or a sequence, negatives allowed) as a tuple of non-negative axes."""
    axis = (axis,) if isinstance(axis, int) else tuple(axis)
    return tuple(a % ndim for a in axis)


def abs_max_quantize(
    inputs, axis, value_range=(-127, 127), dtype="int8", epsilon=None, to_numpy=False
):
    """Quantize `inputs` by its absolute maximum over `axis`: returns `(quantized, scale)` with
    `quantized = clip(round(inputs * scale))` and `scale = value_range[1] / (max|inputs| + eps)`
    (kept dims); `to_numpy=True` computes on the host to spare device memory."""
    epsilon = config.epsilon() if epsilon is None else epsilon
    source_dtype = dtypes.standardize_dtype(inputs.dtype)
    if to_numpy:
        x = np.asarray(ops.convert_to_numpy(inputs))
        peak = np.max(np.abs(x), axis=_axes(axis, x.ndim), keepdims=True)
        scale = np.divide(value_range[1], np.add(peak, epsilon)).astype(x.dtype)
        quantized = np.clip(np.round(x * scale), value_range[0], value_range[1])
        return (
            ops.convert_to_tensor(quantized.astype(dtypes.to_numpy(dtype))),
            ops.convert_to_tensor(scale, dtype=source_dtype),
        )
    x = ops.convert_to_tensor(inputs)
    peak = ops.max(ops.abs(x), axis=_axes(axis, len(x.shape)), keepdims=True)
    scale = ops.cast(ops.divide(value_range[1], ops.add(peak, epsilon)), source_dtype)
    quantized = ops.clip(ops.round(ops.multiply(x, scale)), value_range[0], value_range[1])
    return ops.cast(quantized, dtype), scale


def _float8_round(x, quantized_dtype):
    """`x` (already within the format's range) rounded to the nearest value of the float8
    format `quantized_dtype`, ties to even, computed in x's float dtype."""
    if quantized_dtype not in _FLOAT8:
        raise ValueError(
            f"quantize_and_dequantize: unsupported quantized dtype {quantized_dtype!r}; "
            f"expected one of {sorted(_FLOAT8)}."
        )
    mantissa_bits, min_exponent, _ = _FLOAT8[quantized_dtype]
    # below the smallest normal exponent the grid is evenly spaced (subnormals)
    exponent = ops.floor(ops.log2(ops.maximum(ops.abs(x), 2.0**min_exponent)))
    step = ops.power(2.0, ops.subtract(exponent, float(mantissa_bits)))
    step = ops.cast(step, ops.dtype(x))
    return ops.multiply(ops.round(ops.divide(x, step)), step)


def quantize_and_dequantize(inputs, scale, quantized_dtype, compute_dtype):
    """`inputs / scale` saturated to and rounded on the float8 format `quantized_dtype`, then
    multiplied back by `scale`, in `compute_dtype` (the float8 fake-quantization of a tensor)."""
    largest = _FLOAT8.get(quantized_dtype, (0, 0, 0.0))[2]
    scale = ops.cast(scale, compute_dtype)
    x = ops.clip(ops.divide(ops.cast(inputs, compute_dtype), scale), -largest, largest)
    return ops.multiply(_float8_round(x, quantized_dtype), scale)


def compute_float8_scale(amax, scale, dtype_max, margin=0):
    """The next float8 scale from the running absolute maximum `amax`: `amax / dtype_max * 2^margin`,
    keeping `scale` where `amax` is zero or not finite (delayed scaling)."""
    amax = ops.convert_to_tensor(amax)
    candidate = ops.divide(ops.divide(dtype_max, amax), 2**margin)
    inverse = ops.reciprocal(scale)
    candidate = ops.where(ops.greater(amax, 0.0), candidate, inverse)
    candidate = ops.where(ops.isfinite(amax), candidate, inverse)
    return ops.reciprocal(candidate)


def compute_float8_amax_history(x, amax_history):
    """`amax_history` rolled one step left, with `max|x|` written into its first slot."""
    newest = ops.cast(ops.max(ops.abs(x)), amax_history.dtype)
    rolled = ops.roll(amax_history, shift=-1)
    return ops.scatter_update(rolled, [[0]], ops.reshape(newest, (1,)))


class Quantizer:
    """Base class of quantizers: a callable that maps a tensor to its quantized form."""

    def __init__(self, output_dtype="int8"):
        self.output_dtype = output_dtype

    def __call__(self, x):
        """The quantized `x`; the base quantizer returns `x` as it is."""
        return x

    @classmethod
    def from_config(cls, config):
        """A quantizer from `get_config()`'s output."""
        return cls(**config)

    def get_config(self):
        """The constructor arguments of this quantizer, as a dict."""
        raise NotImplementedError(f"{type(self).__name__} does not implement get_config().")


class AbsMaxQuantizer(Quantizer):
    """Quantizes by the absolute maximum over an axis (`abs_max_quantize`); the axis given to the
    call wins over the constructor's, which defaults to the last axis."""

    def __init__(self, axis=None, value_range=(-127, 127), epsilon=None, output_dtype="int8"):
        super().__init__(output_dtype=output_dtype)
        self.axis = (axis,) if isinstance(axis, int) else None if axis is None else tuple(axis)
        self.value_range = tuple(value_range)
        self.epsilon = config.epsilon() if epsilon is None else epsilon
        if output_dtype == "int8" and (value_range[0] < -128 or value_range[1] > 127):
            raise ValueError(
                "AbsMaxQuantizer: output_dtype 'int8' needs value_range within [-128, 127], "
                f"received {value_range!r}."
            )

    def __call__(self, x, axis=None, to_numpy=False):
        """`(quantized, scale)` of `x` over `axis` (default the constructor's, else -1)."""
        axis = axis if axis is not None else self.axis if self.axis is not None else -1
        return abs_max_quantize(
            x, axis, self.value_range, self.output_dtype, self.epsilon, to_numpy
        )

    def get_config(self):
        config_ = {
            "value_range": list(self.value_range),
            "epsilon": self.epsilon,
            "output_dtype": self.output_dtype,
        }
        if self.axis is not None:
            config_["axis"] = list(self.axis)
        return config_


_OBJECTS = {"Quantizer": Quantizer, "AbsMaxQuantizer": AbsMaxQuantizer}
_OBJECTS.update({"quantizer": Quantizer, "abs_max_quantizer": AbsMaxQuantizer})
for _cls in (Quantizer, AbsMaxQuantizer):
    registry.register_builtin(_cls, "keras.quantizers")


def serialize(initializer):
    """The config of a quantizer (Keras 3 names the argument `initializer`)."""
    return serialization.serialize_keras_object(initializer)


def deserialize(config, custom_objects=None):
    """A quantizer from the config `serialize` gave."""
    return serialization.deserialize_keras_object(config, custom_objects)


def get(identifier, **kwargs):
    """A quantizer from None, a config dict, a class name ("AbsMaxQuantizer",
    "abs_max_quantizer") or a quantizer."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    found = _OBJECTS.get(identifier) if isinstance(identifier, str) else identifier
    if isinstance(found, type):
        return found(**kwargs)
    if callable(found):
        return found
    raise ValueError(f"Could not interpret a quantizer from {identifier!r}.")
