"""The dtype promotion table, and binary ops on the active backend following it.

The expected table is written out by hand from our rules: a JAX-style type lattice with 64-bit
types kept (int32 + uint32 -> int64, float64 + Python complex -> complex128), and Python scalars
weak (`i*`, `f*`, `c*`), resolving to int32 / floatx / complex64 when nothing else decides.
"""

import itertools

import numpy as np
import pytest

import tripod.backends
from tests.backends.ops.harness import stored_dtype
from tripod.backends import config, dtypes

ops = tripod.backends.load(tripod.backends.config.backend())

NAMES = {
    "b": "bool",
    "u8": "uint8",
    "u16": "uint16",
    "u32": "uint32",
    "u64": "uint64",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "bf": "bfloat16",
    "f16": "float16",
    "f32": "float32",
    "f64": "float64",
    "c64": "complex64",
    "c128": "complex128",
    "i*": int,
    "f*": float,
    "c*": complex,
}

# Upper triangle of the symmetric table: row type x column type -> result.
TABLE = """
      b    u8   u16  u32  u64  i8   i16  i32  i64  bf   f16  f32  f64  c64  c128 i*   f*   c*
b     b    u8   u16  u32  u64  i8   i16  i32  i64  bf   f16  f32  f64  c64  c128 i32  f32  c64
u8         u8   u16  u32  u64  i16  i16  i32  i64  bf   f16  f32  f64  c64  c128 u8   f32  c64
u16             u16  u32  u64  i32  i32  i32  i64  bf   f16  f32  f64  c64  c128 u16  f32  c64
u32                  u32  u64  i64  i64  i64  i64  bf   f16  f32  f64  c64  c128 u32  f32  c64
u64                       u64  f32  f32  f32  f32  bf   f16  f32  f64  c64  c128 u64  f32  c64
i8                             i8   i16  i32  i64  bf   f16  f32  f64  c64  c128 i8   f32  c64
i16                                 i16  i32  i64  bf   f16  f32  f64  c64  c128 i16  f32  c64
i32                                      i32  i64  bf   f16  f32  f64  c64  c128 i32  f32  c64
i64                                           i64  bf   f16  f32  f64  c64  c128 i64  f32  c64
bf                                                 bf   f32  f32  f64  c64  c128 bf   bf   c64
f16                                                     f16  f32  f64  c64  c128 f16  f16  c64
f32                                                          f32  f64  c64  c128 f32  f32  c64
f64                                                               f64  c128 c128 f64  f64  c128
c64                                                                    c64  c128 c64  c64  c64
c128                                                                        c128 c128 c128 c128
i*                                                                               i32  f32  c64
f*                                                                                    f32  c64
c*                                                                                         c64
"""


def _expected_table():
    lines = [line.split() for line in TABLE.strip().splitlines()]
    columns = lines[0]
    table = {}
    for row in lines[1:]:
        name, results = row[0], row[1:]
        for column, result in zip(columns[len(columns) - len(results) :], results):
            table[name, column] = table[column, name] = NAMES[result]
    return table


EXPECTED = _expected_table()


def test_the_table_is_complete():
    assert len(EXPECTED) == len(NAMES) ** 2


@pytest.mark.parametrize("a, b", sorted(itertools.product(NAMES, NAMES)))
def test_result_type_of_pairs(a, b):
    assert dtypes.result_type(NAMES[a], NAMES[b]) == EXPECTED[a, b]


def test_result_type_of_python_bool_is_the_bool_dtype():
    assert dtypes.result_type(bool, "int8") == "int8"
    assert dtypes.result_type(bool, bool) == "bool"
    assert dtypes.result_type(bool, float) == "float32"


def test_result_type_of_one_and_of_none():
    assert dtypes.result_type() == "float32"
    assert dtypes.result_type(int) == "int32"
    assert dtypes.result_type(float) == "float32"
    assert dtypes.result_type("uint16") == "uint16"


def test_result_type_of_three_or_more():
    assert dtypes.result_type("int8", "uint8", float) == "float32"
    assert dtypes.result_type("int8", "uint8", int) == "int16"
    assert dtypes.result_type("float16", "int64", float, int) == "float16"
    assert dtypes.result_type("bfloat16", "float16", "int32") == "float32"
    assert dtypes.result_type("uint32", "int8", "float64") == "float64"


def test_result_type_accepts_dtype_objects():
    assert dtypes.result_type(np.dtype("int16"), np.dtype("float32")) == "float32"
    assert dtypes.result_type(np.dtype("uint8"), np.dtype("int8")) == "int16"


def test_result_type_accepts_numpy_scalar_types():
    assert dtypes.result_type(np.int16, np.float32) == "float32"
    assert dtypes.result_type(np.bool_, np.uint8) == "uint8"


def test_weak_floats_follow_floatx():
    config.set_floatx("float64")
    try:
        assert dtypes.result_type(int, float) == "float64"
        assert dtypes.result_type("int32", float) == "float64"
        assert dtypes.result_type("float16", float) == "float16"
    finally:
        config.set_floatx("float32")


def test_unknown_dtypes_are_rejected():
    with pytest.raises(TypeError, match="float31"):
        dtypes.result_type("float31", "int8")


# ---- binary ops on the active backend follow the table ---------------------------------------

TENSOR_TYPES = ["b", "u8", "u16", "u32", "i8", "i16", "i32", "i64", "bf", "f16", "f32", "f64"]
PYTHON = {"i*": 2, "f*": 1.5}


def _tensor(name):
    dtype = dtypes.to_numpy(NAMES[name])
    values = np.array([1, 0, 1]) if name == "b" else np.array([1, 2, 3])
    return values.astype(dtype)


def _operand(name):
    return PYTHON[name] if name in ("i*", "f*") else _tensor(name)


def _binary_result(op, a, b):
    x, y = _operand(a), _operand(b)
    if op == "where":
        return ops.where(np.array([True, False, True]), x, y)
    if op == "concatenate":
        return ops.concatenate([x, y])
    return getattr(ops, op)(x, y)


TENSOR_PAIRS = [(a, b) for a in TENSOR_TYPES for b in TENSOR_TYPES]
PAIRS = (
    TENSOR_PAIRS
    + [(a, p) for a in TENSOR_TYPES for p in PYTHON]
    + [(p, a) for a in ("i8", "u8", "f16", "f64", "b") for p in PYTHON]
)


@pytest.mark.parametrize("op", ["add", "multiply", "subtract", "maximum", "where"])
@pytest.mark.parametrize("a, b", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_binary_ops_follow_the_table(op, a, b):
    if op == "subtract" and a == b == "b":
        pytest.skip("subtracting booleans is not defined")
    assert ops.dtype(_binary_result(op, a, b)) == stored_dtype(EXPECTED[a, b])


@pytest.mark.parametrize("a, b", TENSOR_PAIRS, ids=[f"{a}-{b}" for a, b in TENSOR_PAIRS])
def test_concatenate_follows_the_table(a, b):
    assert ops.dtype(_binary_result("concatenate", a, b)) == stored_dtype(EXPECTED[a, b])


# True division promotes as if a Python float joined the operands: result_type(a, b, float).
DIVIDE = {
    ("i32", "i32"): "float32",
    ("i8", "i8"): "float32",
    ("u8", "i8"): "float32",
    ("i16", "i*"): "float32",
    ("b", "b"): "float32",
    ("i64", "i32"): "float32",
    ("i64", "i*"): "float32",
    ("u32", "i32"): "float32",
    ("u64", "u64"): "float32",
    ("i32", "f*"): "float32",
    ("i8", "f16"): "float16",
    ("f16", "i*"): "float16",
    ("bf", "f16"): "float32",
    ("f32", "f64"): "float64",
    ("i64", "f32"): "float32",
    ("f64", "i*"): "float64",
    ("i32", "f64"): "float64",
}


@pytest.mark.parametrize("a, b", sorted(DIVIDE), ids=[f"{a}-{b}" for a, b in sorted(DIVIDE)])
def test_divide_of_integers_is_a_float(a, b):
    assert dtypes.result_type(NAMES[a], NAMES[b], float) == DIVIDE[a, b]
    assert ops.dtype(_binary_result("divide", a, b)) == stored_dtype(DIVIDE[a, b])
