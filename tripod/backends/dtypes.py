"""Dtype names and the one promotion table every backend shares.

Promotion follows a type lattice in the style of JAX's (with 64-bit types enabled) and Keras 3's
rules: Python scalars are *weak* (`int` adapts to the tensor's integer width, `float` to the
tensor's float width), two integer widths meet at the narrowest integer that holds both, and a
mix that no integer holds (uint64 with a signed int) becomes a float. Weak results resolve to
`int32`, `floatx()` or `complex64`.
"""

import operator

import ml_dtypes
import numpy as np

from tripod.backends import config

FLOATS = ("bfloat16", "float16", "float32", "float64")
INTS = ("int8", "int16", "int32", "int64")
UINTS = ("uint8", "uint16", "uint32", "uint64")
COMPLEXES = ("complex64", "complex128")
ALLOWED = frozenset(FLOATS + INTS + UINTS + COMPLEXES + ("bool",))
#: the dtype of string tensors (no arithmetic, no promotion), and the backends that have them
STRING = "string"
STRING_BACKENDS = frozenset({"tensorflow"})

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
_ALIASES = {
    "float": None,
    "int": "int32",
    "uint": "uint32",
    "complex": "complex64",
    "double": "float64",
    "half": "float16",
}


def standardize_dtype(dtype):
    """The canonical name (e.g. `"float32"`) of a dtype given as a string, type or dtype object.

    None means `floatx()`. Python `int` and `float` map to `int32` and `floatx()`, as in Keras 3.
    `"string"` (and `tf.string`) is accepted as a name; only the tensorflow backend has such tensors.
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
    if name not in ALLOWED and name != STRING:
        raise TypeError(f"Unknown dtype {dtype!r}; expected one of {sorted(ALLOWED)} or 'string'.")
    return name


def _node(dtype):
    """The lattice node of a dtype or a Python scalar type (the weak kinds)."""
    if dtype is int:
        return _WEAK_INT
    if dtype is float:
        return _WEAK_FLOAT
    if dtype is complex:
        return _WEAK_COMPLEX
    name = standardize_dtype(dtype)
    if name == STRING:
        raise TypeError("String tensors take part in no arithmetic: mixing them gives no dtype.")
    return name


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


def _outside(name, ints):
    """The Python ints among `ints` outside the range of integer dtype `name` (none for other
    dtypes)."""
    if name not in INTS and name not in UINTS:
        return []
    info = np.iinfo(name)
    return [value for value in ints if not info.min <= value <= info.max]


def check_python_ints(dtype, *values):
    """Raise OverflowError, as NumPy 2 and JAX do, for a Python int among `values` outside the
    integer `dtype` it computes in: a weak int takes its tensor's dtype, and wrapping it around
    (as torch and TensorFlow would) gives silently wrong results."""
    ints = [value for value in values if type(value) is int]
    if not ints:  # the usual case, on every eager binary op: no dtype lookup
        return
    name = standardize_dtype(dtype)
    outside = _outside(name, ints)
    if outside:
        raise OverflowError(f"Python integer {outside[0]} out of bounds for {name}")


_COMPARISONS = {
    "equal": operator.eq,
    "not_equal": operator.ne,
    "less": operator.lt,
    "less_equal": operator.le,
    "greater": operator.gt,
    "greater_equal": operator.ge,
}


def outlying_comparison(name, x1, x2, result_dtype):
    """The bool every element of comparison op `name` gives when `x1` or `x2` is a Python int
    outside the integer dtype `result_dtype(x1, x2)` they compare in, else None (the usual case).

    NumPy 2 compares such an int exactly instead of converting it (an overflow, or a wrapped
    value): it lies beyond every value of the dtype, 0 included, so each element compares with
    it as 0 does."""
    ints = [x for x in (x1, x2) if type(x) is int]
    if not ints or not _outside(standardize_dtype(result_dtype(x1, x2)), ints):
        return None
    return bool(_COMPARISONS[name](*(x if type(x) is int else 0 for x in (x1, x2))))


def non_int_operand(x1, x2):
    """The operand that is not a Python int (0 when both are): the one whose shape the answer
    of `outlying_comparison` fills."""
    if type(x1) is not int:
        return x1
    return x2 if type(x2) is not int else 0


def dtype_of_python_scalar(value):
    """The weak type marker (`bool`, `int`, `float`, `complex`) of a Python scalar, else None."""
    kind = type(value)
    return kind if kind in (bool, int, float, complex) else None


def check_string_tensors(what):
    """Raise a clear TypeError naming `what` unless the active backend has string tensors: as in
    Keras 3, elsewhere text is vectorized in the input pipeline, not inside a model."""
    backend = config.backend()
    if backend not in STRING_BACKENDS:
        raise TypeError(
            f"{what} has dtype 'string', but string tensors exist only on the tensorflow backend "
            f"(the active backend is {backend!r}). Vectorize text in the input pipeline instead: "
            "apply TextVectorization / StringLookup in a tf.data map (`dataset.map(lambda x, y: "
            "(vectorize_layer(x), y))`) or to NumPy strings before fit, and give the model the "
            "integer tokens."
        )


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
    if name == STRING:
        return np.dtype(object)  # Python str / bytes objects, as TensorFlow reads them
    return np.dtype(name)
