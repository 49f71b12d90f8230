"""`tripod.dtype_policies`: float and quantized dtype policies."""

from tripod.layers.dtype_policies import (
    DTypePolicy,
    FloatDTypePolicy,
    QuantizedDTypePolicy,
    QuantizedFloat8DTypePolicy,
    deserialize,
    get,
    serialize,
)

__all__ = [
    "DTypePolicy",
    "FloatDTypePolicy",
    "QuantizedDTypePolicy",
    "QuantizedFloat8DTypePolicy",
    "deserialize",
    "get",
    "serialize",
]
