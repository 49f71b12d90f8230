"""Parity of the core ops: conversion, casting, shape, scatter/slice, and control flow."""

import numpy as np
import pytest

from tests.backends.ops import harness
from tests.backends.ops.cases import Fn, Var, case, ops_in, params
from tests.backends.ops.harness import randint, randn

X = randn(3, 4)
XI = randint(3, 4, low=-5, high=5)
XB = randn(3, 4) > 0
WIDE = np.array([-300.5, -129.0, -1.5, 0.0, 0.5, 127.9, 255.0, 300.0, 7e4], "float32")

CONVERSION = [
    *(case("convert_to_tensor", randn(2, 3).astype(d)) for d in ("float32", "float64", "float16")),
    *(
        case("convert_to_tensor", randint(2, 3, dtype=d))
        for d in ("int8", "int32", "int64", "uint8")
    ),
    case("convert_to_tensor", XB),
    case("convert_to_tensor", np.zeros((0, 3), "float32")),
    case("convert_to_tensor", 1.5),
    case("convert_to_tensor", 3),
    case("convert_to_tensor", True),
    case("convert_to_tensor", [1.0, 2.5]),
    case("convert_to_tensor", [[1, 2], [3, 4]]),
    case("convert_to_tensor", [1, 2.5]),
    case("convert_to_tensor", [True, False]),
    case("convert_to_tensor", [1, 2], dtype="float64"),
    case("convert_to_tensor", 2.0, dtype="int8"),
    case("convert_to_tensor", X, dtype="float16").tol(1e-3),
    case("convert_to_tensor", XI, "float32"),
    case("convert_to_tensor", Var(X)),
    case("convert_to_tensor", Var(XI)),
    case("convert_to_numpy", X),
    case("convert_to_numpy", XI),
    case("convert_to_numpy", XB),
    case("convert_to_numpy", [1.0, 2.0]),
    case("convert_to_numpy", Var(X)),
    *(
        case("dtype", randn(2).astype(d))
        for d in (
            "float16",
            "float32",
            "float64",
            "int8",
            "int16",
            "int32",
            "int64",
            "uint8",
            "bool",
        )
    ),
    case("dtype", np.zeros(2, "complex64")),
    case("is_tensor", X),
    case("is_tensor", 3.0),
    case("is_tensor", [1.0, 2.0]),
    case("shape", X),
    case("shape", np.zeros((2, 0, 5), "float32")),
    case("shape", np.float32(1.0)),
    case("shape", Var(X)),
]

CASTS = [
    case("cast", X, "int32"),  # truncation towards zero
    case("cast", X, "float16").tol(1e-3),
    case("cast", X, "float64"),
    case("cast", X, "bool"),
    case("cast", XI, "float32"),
    case("cast", XI, "int8"),
    case("cast", XI, "int64"),
    case("cast", XB, "float32"),
    case("cast", XB, "int32"),
    case("cast", XI, dtype="bool"),
    case("cast", randint(5, low=0, high=255, dtype="int32"), "uint8"),
    case("cast", [1.7, -2.7], "int32"),
    case("cast", 3, "float32"),
    case("cast", Var(X), "float64"),
    case("cast", np.zeros((0, 2), "float32"), "int32"),
    case("saturate_cast", WIDE, "uint8"),
    case("saturate_cast", WIDE, "int8"),
    case("saturate_cast", WIDE, "int16"),
    case("saturate_cast", WIDE, "float16"),
    case("saturate_cast", np.array([-70000, -5, 0, 5, 70000], "int32"), "uint8"),
    case("saturate_cast", np.array([-70000, -5, 0, 5, 70000], "int32"), "int16"),
    case("saturate_cast", np.array([-70000, -5, 0, 5, 70000], "int64"), "uint16"),
    case("saturate_cast", np.array([0, 200, 255], "uint8"), "int8"),
    case("saturate_cast", X, "float64"),
]

SCATTER_SLICE = [
    case("scatter", np.array([[0], [2], [4]], "int32"), np.array([1.0, 2.0, 3.0], "float32"), (5,)),
    # duplicate indices add up
    case("scatter", np.array([[0, 1], [2, 0], [0, 1]], "int32"), randn(3), (3, 2)),
    case("scatter", np.array([[1], [0]], "int32"), randn(2, 4), (3, 4)),
    case("scatter", [[1, 1], [0, 2]], np.array([5, 7], "int32"), (2, 3)),
    case("scatter", np.array([[1, 0, 1]], "int64"), randn(1), (2, 2, 2)),
    case(
        "scatter_update",
        np.zeros((4, 3), "float32"),
        np.array([[0, 1], [3, 2]], "int32"),
        np.array([1.0, 2.0], "float32"),
    ),
    case("scatter_update", randn(4, 3), np.array([[1], [3]], "int32"), randn(2, 3)),
    case("scatter_update", randint(4, 3), [[2, 2], [0, 0]], np.array([9, 8], "int32")),
    case("scatter_update", randn(3, 2, 2), np.array([[0, 1], [2, 0]], "int32"), randn(2, 2)),
    *(
        case("scatter_update", randn(5), np.array([[1], [3], [1]], "int32"), randn(3), reduction=r)
        for r in ("add", "max", "min", "mul")
    ),
    case(
        "scatter_update",
        randint(2, 3),
        np.array([[0, 1], [0, 1]], "int32"),
        np.array([2, 3], "int32"),
        reduction="add",
    ),
    case("slice", randn(4, 5), (1, 2), (2, 3)),
    case("slice", randn(4, 5, 6), np.array([0, 1, 2], "int32"), (4, 1, 3)),
    case("slice", randint(6), [5], [1]),
    case("slice", randn(3, 4), (0, 0), (0, 4)),
    case("slice_update", randn(4, 5), (1, 2), randn(2, 3)),
    case("slice_update", randn(4, 5, 6), np.array([2, 0, 3], "int32"), randn(2, 5, 3)),
    case("slice_update", randint(5), [0], randint(2)),
    case("slice_update", randn(4, 5), (0, 0), randn(4, 5)),
    case("stop_gradient", X),
    case("stop_gradient", XI),
    case("stop_gradient", Var(X)),
    case("unstack", randn(3, 4)),
    case("unstack", randn(2, 3, 4), axis=1),
    case("unstack", randn(2, 3, 4), axis=-1),
    case("unstack", randn(2, 3), num=2),
    case("unstack", randint(1, 5), axis=0),
]


def _branches(*fs):
    return [Fn(f, "branch") for f in fs]


def _add(ops, a, b):
    return ops.add(a, b)


def _sum_and_max(ops, a, b):
    return ops.add(a[0], b[0]), ops.maximum(a[1], b[1])


def _scan_pytree(ops, carry, x):
    return (ops.add(carry[0], x["a"]), ops.maximum(carry[1], x["b"])), ops.sum(x["a"])


def _below_five(ops, i, x):
    return ops.less(i, 5)


def _count_and_double(ops, i, x):
    return ops.add(i, 1), ops.multiply(x, 2.0)


CONTROL_FLOW = [
    case("cond", True, Fn(lambda ops: ops.add(X, 1.0)), Fn(lambda ops: ops.zeros((3, 4)))),
    case(
        "cond",
        np.array(False),
        Fn(lambda ops: ops.add(X, 1.0)),
        Fn(lambda ops: ops.multiply(X, 2.0)),
    ),
    case(
        "cond",
        np.array(1.0) > 0,
        Fn(lambda ops: (ops.sum(X), ops.max(XI))),
        Fn(lambda ops: (ops.mean(X), ops.min(XI))),
    ),
    case(
        "switch",
        np.array(1, "int32"),
        _branches(lambda ops, x: ops.add(x, 1), lambda ops, x: ops.square(x)),
        X,
    ),
    case("switch", 0, _branches(lambda ops, x: ops.add(x, 1), lambda ops, x: ops.square(x)), X),
    case(
        "switch", np.array(7, "int32"), _branches(_add, lambda ops, a, b: ops.subtract(a, b)), X, X
    ),  # an index past the end picks the last branch
    case(
        "switch",
        np.array(-3, "int32"),
        _branches(_add, lambda ops, a, b: ops.subtract(a, b)),
        X,
        2.0,
    ),  # a negative index picks the first
    case(
        "scan",
        Fn(lambda ops, c, x: (ops.add(c, x), ops.multiply(c, x))),
        np.zeros(4, "float32"),
        randn(5, 4),
    ),
    case(
        "scan",
        Fn(lambda ops, c, x: (ops.add(c, x), c)),
        np.array(0.0, "float32"),
        randn(6),
        reverse=True,
    ),
    case(
        "scan",
        Fn(lambda ops, c, _: (ops.multiply(c, 2), ops.add(c, 1))),
        np.array(1, "int32"),
        length=4,
    ),
    case(
        "scan",
        Fn(_scan_pytree),
        (np.zeros(3, "float32"), np.full(3, -9.0, "float32")),
        {"a": randn(4, 3), "b": randn(4, 3)},
        unroll=2,
    ),
    case("while_loop", Fn(_below_five), Fn(_count_and_double), (np.array(0, "int32"), randn(2, 2))),
    case(
        "while_loop",
        Fn(lambda ops, i, x: ops.less(i, 10)),
        Fn(lambda ops, i, x: (ops.add(i, 1), ops.add(x, 1.0))),
        (np.array(0, "int32"), randn(3)),
        maximum_iterations=3,
    ),
    case(
        "while_loop",
        Fn(lambda ops, x: ops.less(ops.sum(x), 100.0)),
        Fn(lambda ops, x: (ops.multiply(x, 3.0),)),
        (np.ones(2, "float32"),),
    ),
    case(
        "while_loop",
        Fn(lambda ops, i, x: ops.less(i, 0)),
        Fn(_count_and_double),
        [np.array(0, "int32"), randint(3)],
    ),
    case("fori_loop", 0, 5, Fn(lambda ops, i, v: ops.add(v, ops.cast(i, "float32"))), randn(3)),
    case("fori_loop", 2, 2, Fn(lambda ops, i, v: ops.add(v, 1.0)), randn(3)),
    case(
        "fori_loop",
        1,
        4,
        Fn(lambda ops, i, v: (ops.multiply(v[0], i), ops.add(v[1], 1.0))),
        (np.array(1, "int32"), randn(2)),
    ),
    case("map", Fn(lambda ops, x: ops.sum(ops.square(x))), randn(4, 3)),
    case("map", Fn(lambda ops, x: ops.matmul(x, x)), randn(3, 2, 2)),
    case(
        "map",
        Fn(lambda ops, x: (ops.multiply(x[0], 2.0), ops.max(x[1]))),
        (randn(3, 2), randn(3, 4)),
    ),
    case("vectorized_map", Fn(lambda ops, x: ops.matmul(x, ops.transpose(x))), randn(4, 2, 3)),
    case("vectorized_map", Fn(lambda ops, x: ops.add(x[0], x[1])), (randn(4, 3), randn(4, 3))),
    case("vectorized_map", Fn(lambda ops, x: ops.mean(x)), randn(5, 3)),
    case("associative_scan", Fn(_add), randn(6)),
    case("associative_scan", Fn(_add), randn(5, 3), axis=1),
    case("associative_scan", Fn(lambda ops, a, b: ops.maximum(a, b)), randn(7, 2), reverse=True),
    case(
        "associative_scan",
        Fn(lambda ops, a, b: ops.multiply(a, b)),
        randint(4, 3, low=1, high=3),
        axis=-2,
    ),
    case("associative_scan", Fn(_sum_and_max), (randn(5), randn(5))),
]


def _softplus_with_gradient(ops, x):
    """`log(1 + exp(x))` with a hand-written gradient."""
    e = ops.exp(x)

    def grad(upstream):
        return ops.multiply(upstream, ops.subtract(1.0, ops.divide(1.0, ops.add(1.0, e))))

    return ops.log(ops.add(1.0, e)), grad


GRADIENT = [
    case("custom_gradient", Fn(_softplus_with_gradient)).then(
        lambda ops, f: f(ops.convert_to_tensor(X))
    ),
]

CASES = CONVERSION + CASTS + SCATTER_SLICE + CONTROL_FLOW + GRADIENT
TESTED = ops_in(CASES)


@pytest.mark.parametrize("c", params(CASES))
def test_parity(c):
    c.run()


def test_convert_to_tensor_dtypes_follow_the_python_rules():
    ops = harness.BACKEND
    for value, expected in (
        (1.5, "float32"),
        (3, "int32"),
        (True, "bool"),
        ([1.0, 2.0], "float32"),
        ([1, 2], "int32"),
        (np.arange(3), "int64"),
    ):
        assert ops.dtype(ops.convert_to_tensor(value)) == harness.stored_dtype(expected), value


def test_is_tensor_of_native_tensors():
    ops = harness.BACKEND
    assert ops.is_tensor(ops.convert_to_tensor(X))
    assert ops.is_tensor(ops.zeros((2,)))
    assert not ops.is_tensor("x")
    assert not ops.is_tensor([1.0])
    if ops.name != "numpy":  # the reference backend's tensors are NumPy arrays
        assert not ops.is_tensor(X) and not ops.is_tensor(np.float32(1.0))
