"""`tripod.quantizers`: quantization functions, quantizers and quantization configs; the code lives
in tripod/layers/quantization/."""

from tripod.layers.quantization.config import (
    Float8QuantizationConfig,
    Int8QuantizationConfig,
    QuantizationConfig,
)
from tripod.layers.quantization.fake_quant import fake_quant_with_min_max_vars
from tripod.layers.quantization.int4_packing import pack_int4, unpack_int4
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
from tripod.layers.quantization.zero_point import abs_max_quantize_grouped_with_zero_point

__all__ = [
    "AbsMaxQuantizer",
    "Float8QuantizationConfig",
    "Int8QuantizationConfig",
    "QuantizationConfig",
    "Quantizer",
    "abs_max_quantize",
    "abs_max_quantize_grouped_with_zero_point",
    "compute_float8_amax_history",
    "compute_float8_scale",
    "deserialize",
    "fake_quant_with_min_max_vars",
    "get",
    "pack_int4",
    "quantize_and_dequantize",
    "serialize",
    "unpack_int4",
]
