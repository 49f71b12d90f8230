"""Dtype names and the one promotion table every backend shares.

Promotion follows a type lattice in the style of JAX's (with 64-bit types enabled) and Keras 3's
rules: Python scalars are *weak* (`int` adapts to the tensor's integer width, `float` to the
tensor's float width), two integer widths meet at the narrowest integer that holds both, and a
mix that no integer holds (uint64 with a signed int) becomes a float. Weak results resolve to
`int32`, `floatx()` or `complex64`.
"""

import ml_dtypes
import numpy as np

from tripod.backends import config

FLOATS = ("bfloat16", "float16", "float32", "float64")
INTS = ("int8", "int16", "int32", "int64")
UINTS = ("uint8", "uint16", "uint32", "uint64")
COMPLEXES = ("complex64", "complex128")
ALLOWED = frozenset(FLOATS + INTS + UINTS + COMPLEXES + ("bool",))

# Weak (Python-scalar) kinds, internal to the lattice.
_WEAK_INT, _WEAK_FLOAT, _WEAK_COMPLEX = "int*", "float*", "complex*"

# Each type -> the types directly above it.
_LATTICE = {
    "bool": (_WEAK_INT,),
    _WEAK_INT: ("uint8", "int8"),
    "uint8": ("uint16", "int16"),
    "uint16": ("uint32", "int32"),
    "uint32": ("uint64", "int64"),
    "uint64": (_WEAK_FLOAT,),
    "int8": ("int16",),
    "int16": ("int32",),
    "int32": ("int64",),
    "int64": (_WEAK_FLOAT,),
    _WEAK_FLOAT: ("bfloat16", "float16", _WEAK_COMPLEX),
    "bfloat16": ("float32",),
    "float16": ("float32",),
    "float32": ("float64", "complex64"),
    "float64": ("complex128",),
    _WEAK_COMPLEX: ("complex64",),
    "complex64": ("complex128",),
    "complex128": (),
}


def _upper_set(node):
    seen, todo = set(), [node]
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo.extend(_LATTICE[n])
    return frozenset(seen)


_UPPER = {node: _upper_set(node) for node in _LATTICE}


def _join(a, b):
    """The least upper bound of two lattice nodes."""
    common = _UPPER[a] & _UPPER[b]
    return next(n for n in common if _UPPER[n] == common)


_PYTHON_TYPES = {bool: "bool", int: "int32", float: None, complex: "complex64"}
_ALIASES = {"float": None, "int": "int32", "uint": "uint32", "complex": "complex64", "double": "float64", "half": "float16"}


def standardize_dtype(dtype):
    """The canonical name (e.g. `"float32"`) of a dtype given as a string, type or dtype object.

    None means `floatx()`. Python `int` and `float` map to `int32` and `floatx()`, as in Keras 3.
    """
    if dtype is None:
        return config.floatx()
    if dtype in _PYTHON_TYPES:
        return _PYTHON_TYPES[dtype] or config.floatx()
    if isinstance(dtype, type) and issubclass(dtype, np.generic):
        dtype = np.dtype(dtype)  # numpy scalar types: np.int16, ml_dtypes.bfloat16
    name = dtype if isinstance(dtype, str) else getattr(dtype, "name", None)
    if not isinstance(name, str):
        name = str(dtype)
    name = name.removeprefix("torch.").removeprefix("<dtype: '").removesuffix("'>")
    if name in _ALIASES:
        name = _ALIASES[name] or config.floatx()
    if name not in ALLOWED:
        raise TypeError(f"Unknown dtype {dtype!r}; expected one of {sorted(ALLOWED)}.")
    return name


def _node(dtype):
    """The lattice node of a dtype or a Python scalar type (the weak kinds)."""
    if dtype is int:
        return _WEAK_INT
    if dtype is float:
        return _WEAK_FLOAT
    if dtype is complex:
        return _WEAK_COMPLEX
    return standardize_dtype(dtype)


def _resolve_weak(node):
    return {
        _WEAK_INT: "int32",
        _WEAK_FLOAT: config.floatx(),
        _WEAK_COMPLEX: "complex64",
    }.get(node, node)


def result_type(*dtypes):
    """The dtype that mixing `dtypes` gives, the same on every backend.

    Pass Python `int`, `float` or `bool` for a Python scalar operand (a weak type).
    With no dtypes, returns `floatx()`.
    """
    if not dtypes:
        return config.floatx()
    node = _node(dtypes[0])
    for dtype in dtypes[1:]:
        node = _join(node, _node(dtype))
    return _resolve_weak(node)


def dtype_of_python_scalar(value):
    """The weak type marker (`bool`, `int`, `float`, `complex`) of a Python scalar, else None."""
    kind = type(value)
    return kind if kind in (bool, int, float, complex) else None


def is_float(dtype):
    """Whether `dtype` is a floating type."""
    return standardize_dtype(dtype) in FLOATS


def is_int(dtype):
    """Whether `dtype` is a signed or unsigned integer type."""
    return standardize_dtype(dtype) in INTS + UINTS


def is_complex(dtype):
    """Whether `dtype` is a complex type."""
    return standardize_dtype(dtype) in COMPLEXES


def to_numpy(dtype):
    """The numpy dtype for a tripod dtype name (bfloat16 through ml_dtypes)."""
    name = standardize_dtype(dtype)
    if name == "bfloat16":
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)
