"""`tripod.dtype_policies`: float and quantized dtype policies, and policies by layer path; the code
lives in tripod/layers/dtype_policies.py."""

from tripod.layers.dtype_policies import (
    DTypePolicy,
    DTypePolicyMap,
    FloatDTypePolicy,
    QuantizedDTypePolicy,
    QuantizedFloat8DTypePolicy,
    deserialize,
    get,
    serialize,
)

__all__ = [
    "DTypePolicy",
    "DTypePolicyMap",
    "FloatDTypePolicy",
    "QuantizedDTypePolicy",
    "QuantizedFloat8DTypePolicy",
    "deserialize",
    "get",
    "serialize",
]
