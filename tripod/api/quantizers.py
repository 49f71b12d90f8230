"""`tripod.quantizers`: quantization functions, quantizers and quantization configs."""

from tripod.layers.quantization.config import (
    Float8QuantizationConfig,
    Int8QuantizationConfig,
    QuantizationConfig,
)
from tripod.layers.quantization.quantizers import (
    AbsMaxQuantizer,
    Quantizer,
    abs_max_quantize,
    compute_float8_amax_history,
    compute_float8_scale,
    deserialize,
    get,
    quantize_and_dequantize,
    serialize,
)

__all__ = [
    "AbsMaxQuantizer",
    "Float8QuantizationConfig",
    "Int8QuantizationConfig",
    "QuantizationConfig",
    "Quantizer",
    "abs_max_quantize",
    "compute_float8_amax_history",
    "compute_float8_scale",
    "deserialize",
    "get",
    "quantize_and_dequantize",
    "serialize",
]
