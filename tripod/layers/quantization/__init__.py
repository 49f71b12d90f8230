"""LoRA and int8/float8 quantization of `Dense`, `EinsumDense` and `Embedding`, kept beside the
layers: each of those layers takes the `Quantizable` methods and names its `Kind`; the
quantization functions and quantizer objects (`tripod.quantizers`) live in `quantizers`, the
quantization configs in `config`.
"""

from tripod.layers.quantization import kinds
from tripod.layers.quantization.config import (
    Float8QuantizationConfig,
    Int8QuantizationConfig,
    QuantizationConfig,
)
from tripod.layers.quantization.quantizable import Quantizable

__all__ = [
    "Float8QuantizationConfig",
    "Int8QuantizationConfig",
    "Quantizable",
    "QuantizationConfig",
    "kinds",
]
