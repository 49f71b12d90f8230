"""Parity of the numpy-kind ops, part 2: shape, indexing, reductions, sorting and products.

Element-wise functions, comparisons and creation ops are in `test_numpy_ops.py`.
"""

import numpy as np
import pytest

from tests.backends.ops.cases import Fn, case, f32, i32, ops_in, params
from tests.backends.ops.harness import BACKEND, randint, randn, uniform

X3 = randn(2, 3, 4)
I3 = randint(2, 3, 4, low=-5, high=5)
B3 = randn(2, 3, 4) > 0
C2 = (randn(2, 3) + 1j * randn(2, 3)).astype("complex64")
M = randn(3, 4)

SHAPE = [
    case("reshape", X3, (6, 4)),
    case("reshape", X3, (-1,)),
    case("reshape", X3, (4, -1, 2)),
    case("reshape", I3, 24),
    case("reshape", randn(1, 1), ()),
    case("reshape", np.zeros((0, 3), "float32"), (3, 0)),
    case("reshape", [1, 2, 3, 4], (2, 2)),
    case("transpose", X3),
    case("transpose", X3, (1, 0, 2)),
    case("transpose", I3, axes=(2, 0, 1)),
    case("transpose", randn(4)),
    case("transpose", X3, (-1, 0, 1)),
    case("expand_dims", X3, 0),
    case("expand_dims", X3, -1),
    case("expand_dims", X3, 2),
    case("expand_dims", randn(3), (0, 2)),
    case("expand_dims", np.array(1.5, "float32"), 0),
    case("squeeze", randn(1, 3, 1, 2)),
    case("squeeze", randn(1, 3, 1, 2), 2),
    case("squeeze", randn(1, 3, 1, 2), -2),
    case("squeeze", randn(1, 3, 1, 2), axis=(0, 2)),
    case("squeeze", randn(3, 2)),
    case("broadcast_to", randn(3), (2, 3)),
    case("broadcast_to", randint(2, 1), (3, 2, 4)),
    case("broadcast_to", np.array(1.5, "float32"), (2,)),
    case("broadcast_to", randn(3), [0, 3]),
    case("ravel", X3),
    case("ravel", randint(2, 2)),
    case("ravel", np.array(3.0, "float32")),
    case("size", X3),
    case("size", np.zeros((0, 4), "float32")),
    case("ndim", X3),
    case("ndim", np.array(2.0, "float32")),
    case("swapaxes", X3, 0, 2),
    case("swapaxes", X3, -1, 1),
    case("moveaxis", X3, 0, -1),
    case("moveaxis", X3, (0, 1), (2, 0)),
    case("moveaxis", I3, -1, 0),
    case("flip", X3),
    case("flip", X3, 1),
    case("flip", X3, (0, -1)),
    case("fliplr", M),
    case("fliplr", X3),
    case("flipud", M),
    case("flipud", randn(4)),
    case("rot90", M),
    case("rot90", M, 2),
    case("rot90", M, -1),
    case("rot90", X3, 3, (1, 2)),
    case("rot90", I3, k=1, axes=(2, 0)),
    case("roll", X3, 1),
    case("roll", X3, -2, 1),
    case("roll", X3, (1, 2), (0, 2)),
    case("roll", randint(5), 7),
    case("tile", randn(2, 3), 2),
    case("tile", randn(2, 3), (2, 1)),
    case("tile", randn(3), (2, 2)),
    case("tile", randint(2, 1), (1, 1, 3)),
    case("repeat", randn(2, 3), 2),
    case("repeat", randn(2, 3), 2, axis=0),
    case("repeat", randn(2, 3), [1, 0, 3], axis=1),
    case("repeat", randint(3), np.array([2, 1, 2], "int32")),
    case("repeat", randn(2, 3), 3, -1),
    case("concatenate", [randn(2, 3), randn(1, 3)]),
    case("concatenate", [randn(2, 3), randn(2, 1)], axis=1),
    case("concatenate", (randn(2, 3), randn(2, 3), randn(2, 3)), -1),
    case("concatenate", [randint(2), randn(3)]),
    case("concatenate", [randint(2, dtype="int8"), randint(3, dtype="uint8")]),
    case("concatenate", [randn(2).astype("float16"), randn(1)]),
    case("concatenate", [randn(2, 0), randn(2, 3)], axis=1),
    case("concatenate", [randn(3) > 0, randint(2)]),
    case("stack", [randn(2, 3), randn(2, 3)]),
    case("stack", [randn(2, 3), randn(2, 3)], axis=-1),
    case("stack", (randint(3), randn(3)), 1),
    case("stack", [randn(2)]),
    case("hstack", [randn(2, 3), randn(2, 1)]),
    case("hstack", [randn(3), randn(2)]),
    case("hstack", [randint(2, 2), randn(2, 1)]),
    case("vstack", [randn(2, 3), randn(1, 3)]),
    case("vstack", [randn(3), randn(3)]),
    case("vstack", [randint(1, 3, dtype="int8"), randint(2, 3, dtype="int16")]),
    case("dstack", [randn(2, 3), randn(2, 3)]),
    case("dstack", [randn(3), randn(3)]),
    case("dstack", [randn(2, 2, 1), randn(2, 2, 2)]),
    case("split", randn(6, 2), 3),
    case("split", randn(6, 2), [1, 4]),
    case("split", randn(2, 6), 2, axis=1),
    case("split", randn(2, 6), [2, 3], -1),
    case("split", randint(4), 1),
    case("array_split", randn(7, 2), 3),
    case("array_split", randn(2, 5), 2, axis=1),
    case("array_split", randn(4), 4),
    case("hsplit", randn(2, 4), 2),
    case("hsplit", randn(6), [2, 5]),
    case("vsplit", randn(4, 2), 2),
    case("vsplit", randn(4, 2), [1]),
    case("dsplit", randn(2, 2, 4), 2),
    case("dsplit", randn(2, 2, 4), [1, 3]),
    case("append", randn(3), randn(2)),
    case("append", randn(2, 3), randn(1, 3), axis=0),
    case("append", randn(2, 3), randn(2, 2), -1),
    case("append", randint(2, 2), randn(3)),
    case("pad", randn(2, 3), ((1, 2), (0, 1))),
    case("pad", randn(2, 3), 1),
    case("pad", randn(2, 3), ((1, 1),)),
    case("pad", randn(2, 3), ((1, 2), (2, 1)), constant_values=3.5),
    case("pad", randint(2, 3), ((1, 0), (0, 2)), "constant", 7),
    case("pad", randn(3, 4), ((2, 1), (1, 2)), mode="reflect"),
    case("pad", randn(3, 4), ((2, 1), (3, 0)), mode="symmetric"),
    case("pad", randint(2, 3, 4), ((0, 0), (1, 1), (2, 2)), mode="reflect"),
    case("pad", randn(3), (2, 2), "symmetric"),
    case("pad", randn(2, 3), ((1, 2), (2, 1)), mode="wrap"),
    case("pad", randn(2, 3), ((1, 2), (2, 1)), mode="circular"),
    case("diag", randn(3)),
    case("diag", randn(3), 1),
    case("diag", randn(3), k=-2),
    case("diag", randn(3, 4)),
    case("diag", randn(3, 4), 1),
    case("diag", randint(4, 3), -1),
    case("diagflat", randn(2, 2)),
    case("diagflat", randn(3), 1),
    case("diagflat", randint(3), -1),
    case("diagonal", randn(3, 4)),
    case("diagonal", randn(3, 4), 1),
    case("diagonal", randn(3, 4), -1),
    case("diagonal", X3, 0, 1, 2),
    case("diagonal", X3, offset=1, axis1=-1, axis2=0),
    case("tril", randn(3, 4)),
    case("tril", randn(3, 4), 1),
    case("tril", randn(2, 3, 3), -1),
    case("tril", randint(3, 3)),
    case("triu", randn(3, 4)),
    case("triu", randn(3, 4), -1),
    case("triu", randn(2, 3, 3), k=2),
    case("triu", randn(3, 3) > 0),
    case("meshgrid", randn(3), randn(2)),
    case("meshgrid", randn(3), randn(2), indexing="ij"),
    case("meshgrid", randint(2), randn(3), randn(4)),
    case("meshgrid", randn(3)),
    case("rearrange", randn(2, 3, 4, 5), "b h w c -> b c h w"),
    case("rearrange", randn(2, 6), "b (h w) -> b h w", h=2),
    case("rearrange", randn(2, 3, 4), "b h w -> b (h w)"),
    case("rearrange", randn(2, 3, 4), "b h w -> (b h) w"),
    case("rearrange", randn(6, 4), "(a b) c -> b a c", a=2),
]

INDEXING = [
    case("get_item", X3, 1),
    case("get_item", X3, -1),
    case("get_item", X3, (0, 2)),
    case("get_item", X3, slice(1, 3)),
    case("get_item", X3, (slice(None), slice(0, 3, 2))),
    case("get_item", X3, (Ellipsis, 1)),
    case("get_item", X3, (None, 0, Ellipsis)),
    case("get_item", X3, (slice(None), None, -2)),
    case("get_item", X3, (0, slice(None, None, -1))),
    case("get_item", X3, np.array([1, 0, 1], "int32")),
    case("get_item", X3, (slice(None), np.array([2, 0], "int32"))),
    case("get_item", I3, (1, 2, 3)),
    case("get_item", randn(5), slice(-3, None)),
    case("get_item", randn(5), slice(4, 2)),
    case("take", randn(5), np.array([0, 3, 3], "int32")),
    case("take", randn(5), np.array([[0, 1], [4, 2]], "int32")),
    case("take", X3, np.array([2, 0], "int32"), axis=1),
    case("take", X3, np.array([1], "int64"), axis=-1),
    case("take", X3, np.array([5, 1], "int32")),
    case("take", X3, 1, 0),
    case("take", X3, np.array([-1, 0], "int32"), axis=2),
    case("take", randint(4), [1, 2]),
    case("take_along_axis", M, np.argsort(M, axis=1).astype("int32"), axis=1),
    case("take_along_axis", M, np.argsort(M, axis=0).astype("int32")[:2], axis=0),
    case("take_along_axis", X3, np.zeros((2, 3, 1), "int32"), -1),
    case("take_along_axis", randn(5), np.array([4, 0], "int32"), None),
    case("take_along_axis", M, np.array([[1], [0], [3]], "int64"), axis=1),
    case("where", M > 0, M, 0.0),
    case("where", M > 0, randint(3, 4), randn(4)),
    case("where", M > 0, 1, 0),
    case("where", np.array([True, False]), randint(2, dtype="int8"), randint(2, dtype="uint8")),
    case("where", randint(3, 4, low=-1, high=2), M, -M),
    case("where", M > 0, 1.5, randint(3, 4)),
    case("where", M > 0),
    case("where", np.array([[0, 1], [2, 0]], "int32")),
    case("where", M > 0, M.astype("float64"), 2),
    case("select", [M < -0.5, M > 0.5], [M, -M]),
    case("select", [M < 0], [randint(3, 4)], 7),
    case("select", [M < -0.5, M > 0.5], [randint(3, 4), randint(3, 4)], default=-1),
    case("nonzero", np.array([[0, 1, 0], [2, 0, 3]], "int32")),
    case("nonzero", M > 0),
    case("nonzero", np.array([0.0, 1.5, -0.0, 2.0], "float32")),
    case("nonzero", np.zeros((2, 2), "float32")),
    case("unravel_index", np.array([0, 5, 11], "int32"), (3, 4)),
    case("unravel_index", np.array([[3, 7]], "int32"), (2, 2, 2)),
    case("unravel_index", 5, (2, 3)),
    case("searchsorted", f32([1.0, 2.0, 2.0, 3.0]), f32([2.0, 0.5, 3.5, 2.5])),
    case("searchsorted", f32([1.0, 2.0, 2.0, 3.0]), f32([2.0, 0.5, 3.0]), side="right"),
    case("searchsorted", np.array([1, 3, 5], "int32"), np.array([[0, 3], [5, 6]], "int32")),
    case("searchsorted", np.array([1, 3, 5], "int32"), np.array([2.5, 4.0], "float32"), "left"),
    case("digitize", f32([0.5, 1.0, 1.5, 3.0, 4.0]), f32([1.0, 2.0, 3.0])),
    case("digitize", randn(2, 3), np.array([-1.0, 0.0, 1.0], "float32")),
    case("digitize", np.array([1, 5, 9], "int32"), np.array([0, 5, 10], "int32")),
    case("isin", np.array([1, 2, 3, 4], "int32"), np.array([2, 4, 6], "int32")),
    case("isin", randint(2, 3), np.array([1, 3, 5], "int32"), invert=True),
    case("isin", np.array([1.0, 2.5], "float32"), np.array([2.5], "float32"), True),
    case("isin", randint(3, 2), randint(2, 2)),
]

# Reductions over (2, 3, 4): axis None, a negative axis, a tuple, and keepdims both ways.
AXES = [
    {},
    {"axis": 0},
    {"axis": -1},
    {"axis": (0, 2)},
    {"axis": 1, "keepdims": True},
    {"axis": None, "keepdims": True},
    {"axis": (-1, -3), "keepdims": True},
]
INPUTS = {
    "f": (X3, randn(2, 3, 4).astype("float64")),
    "i": (
        I3,
        randint(2, 3, 4, low=-3, high=3, dtype="int8"),
        randint(2, 3, 4, high=5, dtype="uint8"),
    ),
    "b": (B3,),
}
REDUCTIONS = {
    "sum": "fib",
    "prod": "fib",
    "mean": "fib",
    "max": "fib",
    "min": "fib",
    "amax": "fib",
    "amin": "fib",
    "all": "fib",
    "any": "fib",
    "std": "fi",
    "var": "fi",
    "ptp": "fi",
    "nanmean": "f",
    "nansum": "fi",
    "nanprod": "fi",
    "nanmax": "fi",
    "nanmin": "fi",
    "nanstd": "f",
    "nanvar": "f",
    "median": "fi",
    "nanmedian": "f",
}
ARG_REDUCTIONS = ("argmax", "argmin", "nanargmax", "nanargmin")
NAN3 = np.where(uniform(2, 3, 4) < 0.3, np.nan, X3).astype("float32")
NAN3[:, :, 0] = X3[:, :, 0]  # every reduced slice keeps at least one number


def _reduction_cases():
    for op, kinds in REDUCTIONS.items():
        for axes in AXES:
            yield case(op, X3, **axes)
        for kind in kinds:
            for x in INPUTS[kind]:
                yield case(op, x, axis=1)
        if op.startswith("nan"):
            yield case(op, NAN3, axis=-1)
            yield case(op, NAN3, axis=(0, 2), keepdims=True)
    for op in ARG_REDUCTIONS:
        for axes in ({}, {"axis": 0}, {"axis": -1}, {"axis": 1, "keepdims": True}):
            yield case(op, X3, **axes)
        yield case(op, I3[0, 0])
        yield case(op, np.array([1.0, 3.0, 3.0, 2.0], "float32"))  # the first maximum wins
    for op in ("nanargmax", "nanargmin"):
        yield case(op, NAN3, axis=-1)


EMPTY = np.zeros((0, 3), "float32")
REDUCTIONS_EXTRA = [
    *_reduction_cases(),
    case("sum", EMPTY),
    case("sum", EMPTY, axis=0),
    case("prod", EMPTY, axis=0),
    case("any", EMPTY > 0, axis=0),
    case("all", EMPTY > 0),
    case("sum", randint(3, 4, dtype="int16"), -1),
    case("sum", randint(3, 4, dtype="uint16")),
    case("sum", randint(3, 4, dtype="int64"), 0),
    case("prod", randint(3, 4, low=1, high=4, dtype="uint8"), 0),
    case("mean", randn(4).astype("float16")).tol(2e-3),
    case("mean", randint(3, 4, dtype="int64"), 1),
    case("mean", randn(3, 1, 4), 1),  # one value per mean: torch returns a view
    case("mean", randn(3, 1, 1), (1, 2)),
    case("mean", randn(3, 1).astype("float16"), -1),
    case("mean", randint(3, 1, dtype="int32"), -1),
    case("max", X3, axis=1, initial=0.5),
    case("max", EMPTY, axis=0, initial=-1.0),
    case("min", I3, initial=-2),
    case("min", X3, -1, True, 0.0),
    *(case(op, C2, **axes) for op in ("var", "std") for axes in ({}, {"axis": 1})),
    case("var", C2.astype("complex128"), 0, True),
    case("count_nonzero", np.array([[0, 1, 2], [0, 0, 3]], "int32")),
    case("count_nonzero", np.array([[0, 1, 2], [0, 0, 3]], "int32"), 0),
    case("count_nonzero", X3 > 0, (0, 2)),
    case("count_nonzero", np.array([0.0, -0.0, 1.5], "float32"), axis=-1),
    case("average", X3),
    case("average", X3, 1),
    case("average", X3, axis=-1, weights=uniform(4, low=0.5, high=1.0)),
    case("average", X3, None, uniform(2, 3, 4, low=0.5, high=1)),
    case("average", I3, axis=0, weights=np.array([1, 3], "int32")),
    case("cumsum", X3),
    case("cumsum", X3, 1),
    case("cumsum", I3, -1),
    case("cumsum", B3, 0),
    case("cumsum", randint(5, dtype="uint8"), dtype="int32"),
    case("cumsum", X3, 2, "float64"),
    case("cumprod", uniform(2, 3, low=0.5, high=1.5)),
    case("cumprod", uniform(2, 3, low=0.5, high=1.5), axis=0),
    case("cumprod", randint(2, 3, low=-2, high=3), -1),
    case("cumprod", randint(3, low=1, high=3, dtype="int8"), dtype="int32"),
    case("cumprod", np.array([True, True, False, True]), 0),
    case("cumsum", B3, 1, "bool"),  # a bool dtype counts in int32, given or kept (Keras 3)
    case("cumprod", B3, -1, dtype="bool"),
    case("cumsum", randint(5, low=-2, high=3, dtype="int8"), dtype="bool"),
    case("cumsum", np.array(True), 0),  # a 0-d x is 1-D, as NumPy takes it
    case("cumprod", np.array(3, "int32"), -1),
    case("nancumsum", NAN3, axis=-1),
    case("nancumsum", NAN3),
    case("nancumsum", I3, axis=0),
    case("nancumprod", np.array([[1.5, np.nan, 2.0], [np.nan, np.nan, 3.0]], "float32"), axis=1),
    case("nancumprod", np.array([[1.5, np.nan, 2.0], [np.nan, np.nan, 3.0]], "float32")),
    case("nancumsum", NAN3, 1, "float64"),
    case("diff", randn(5)),
    case("diff", randn(5), 2),
    case("diff", X3, 1, 0),
    case("diff", I3, n=2, axis=1),
    case("diff", B3, axis=-1),
    case("diff", randn(3), 0),
    case("trapezoid", randn(5)),
    case("trapezoid", randn(5), dx=0.5),
    case("trapezoid", randn(2, 4), np.array([0.0, 1.0, 3.0, 3.5], "float32")),
    case("trapezoid", randn(3, 2), axis=0),
    case("trapezoid", randint(4)),
    case("trace", randn(3, 4)),
    case("trace", randn(3, 4), 1),
    case("trace", X3, -1, 1, 2),
    case("trace", I3, axis1=2, axis2=0),
    case("trace", randint(3, 3, dtype="uint8")),
    case("trace", randn(3, 3) > 0),
]

Q = np.array([0.1, 0.5, 0.9], "float32")  # index q*(n-1) never a half, so "nearest" is unique
QUANTILES = [
    *(
        case("quantile", X3, q, method=m)
        for q in (0.3, Q)
        for m in ("linear", "lower", "higher", "midpoint", "nearest")
    ),
    case("quantile", X3, 0.25, axis=-1),
    case("quantile", X3, Q, axis=(0, 2), keepdims=True),
    case("quantile", X3, 0.6, 1, "linear", True),
    case("quantile", I3, Q, axis=0),
    case("percentile", X3, 30.0),
    case("percentile", X3, np.array([10.0, 90.0], "float32"), axis=1, method="higher"),
    case("percentile", I3, 50, -1, keepdims=True),
    case("nanquantile", NAN3, 0.3, axis=-1),
    case("nanquantile", NAN3, Q, axis=1, method="lower"),
    case("nanquantile", NAN3, 0.5, axis=(0, 2), keepdims=True),
    case("nanpercentile", NAN3, 30.0, axis=-1),
    case("nanpercentile", NAN3, np.array([10.0, 90.0], "float32"), axis=0, method="higher"),
    case("median", X3, (0, 2)),
    case("median", X3, -1, True),
    case("median", randn(4)),
    case("nanmedian", NAN3, axis=-1, keepdims=True),
]

DISTINCT = np.array([[3.0, -1.0, 2.5, 0.5], [-2.0, 4.0, 1.0, 0.0]], "float32")
PARTITION = randn(3, 6)


def _partitioned(kth):
    """The kth element and the sorted values on each side of it: unique for any valid result."""

    def post(ops, indices):
        parted = ops.take_along_axis(PARTITION, indices, axis=-1)
        return (parted[:, kth], ops.sort(parted[:, :kth], -1), ops.sort(parted[:, kth + 1 :], -1))

    return post


SORTING = [
    case("sort", X3),
    case("sort", X3, 0),
    case("sort", X3, axis=1),
    case("sort", I3, -1),
    case("sort", randn(6), None),
    case("sort", randn(3, 0), -1),
    case("sort", np.array([np.nan, 1.0, -np.inf, 0.0], "float32")),
    case("sort", B3, -1),
    case("sort", np.array(2.5, "float32"), None),
    case("argsort", X3),
    case("argsort", X3, 0),
    case("argsort", X3, axis=None),
    case("argsort", DISTINCT, 1),
    case("argsort", randint(3, 2, low=-99, high=99) * 7 + np.arange(2, dtype="int32")),
    case("argsort", np.array(2.5, "float32")),
    case("argsort", np.array(3, "int32"), 0),
    case("argsort", np.array(2.5, "float32"), None),
    case("argpartition", PARTITION, 2).then(_partitioned(2)),
    case("argpartition", PARTITION, 0, -1).then(_partitioned(0)),
    case("argpartition", PARTITION, kth=5).then(_partitioned(5)),
    case("unique", np.array([3, 1, 2, 3, 1, 4], "int32")),
    case("unique", np.array([3.0, 1.5, 3.0], "float32"), return_counts=True),
    case("unique", np.array([3, 1, 2, 3, 1], "int32"), return_index=True, return_inverse=True),
    case("unique", np.array([[1, 2], [1, 2], [0, 5]], "int32"), axis=0),
    case(
        "unique",
        np.array([[1, 2], [1, 2], [0, 5]], "int32"),
        axis=0,
        return_inverse=True,
        return_counts=True,
    ),
    case("unique", np.array([2, 2, 7], "int32"), size=4, fill_value=-1),
    case("unique", np.array([2, 2, 7, 1, 5], "int32"), size=3),
    case("unique", np.array([5, 1, 5], "int32"), True, True, True, True),
    case("unique", np.array([[4, 4], [1, 0]], "int32")),
    case("bincount", np.array([0, 1, 1, 3], "int32")),
    case("bincount", np.array([0, 1, 1, 3], "int32"), minlength=6),
    case("bincount", i32([0, 1, 1, 3]), weights=f32([0.5, 1.0, 2.0, 1.5])),
    case("bincount", np.array([2, 2], "int32"), np.array([1, 2], "int32"), 1),
    case("bincount", randint(2, 5, low=0, high=4)),
    case("histogram", uniform(20)),
    case("histogram", uniform(20), 4, (0.0, 1.0)),
    case("histogram", randn(30), bins=5),
    case("histogram", uniform(10, low=-1, high=1), 3, range=(-1.0, 1.0)),
]

SQUARE = randn(2, 3, 3) + 3 * np.eye(3, dtype="float32")
PRODUCTS = [
    case("matmul", randn(2, 3), randn(3, 4)),
    case("matmul", randn(5, 2, 3), randn(3, 4)),
    case("matmul", randn(2, 1, 2, 3), randn(4, 3, 2)),
    case("matmul", randn(3), randn(3, 2)),
    case("matmul", randn(2, 3), randn(3)),
    case("matmul", randn(3), randn(3)),
    case("matmul", randint(2, 3), randint(3, 2)),
    case("matmul", randint(2, 3), randn(3, 2)),
    case("matmul", randint(2, 3, dtype="int8"), randint(3, 2, dtype="int8")),
    case("matmul", randn(2, 3).astype("float16"), randn(3, 2).astype("float16")).tol(5e-3),
    case("matmul", randn(2, 3).astype("float64"), randn(3, 2)),
    case("matmul", randn(0, 3), randn(3, 2)),
    case("matmul", randn(2, 0), randn(0, 2)),
    case("matmul", (randn(2, 3) + 1j * randn(2, 3)).astype("complex64"), randn(3, 2)),
    case("dot", randn(3), randn(3)),
    case("dot", randn(2, 3), randn(3, 4)),
    case("dot", randn(2, 3), randn(3)),
    case("dot", randn(2, 3, 4), randn(4, 2)),
    case("dot", randn(2, 3, 4), randn(5, 4, 2)),
    case("dot", randn(2, 3), 2.0),
    case("dot", randint(2, 3), randint(3)),
    case("tensordot", randn(2, 3, 4), randn(3, 4, 5)),
    case("tensordot", randn(2, 3), randn(3, 4), 1),
    case("tensordot", randn(2, 3, 4), randn(4, 3, 2), axes=([1, 2], [1, 0])),
    case("tensordot", randn(2, 3), randn(4, 5), 0),
    case("tensordot", randint(2, 3), randn(3, 2), axes=[[1], [0]]),
    case("einsum", "ij,jk->ik", randn(2, 3), randn(3, 4)),
    case("einsum", "bij,bjk->bik", randn(2, 2, 3), randn(2, 3, 2)),
    case("einsum", "ii->i", randn(3, 3)),
    case("einsum", "ii", randn(3, 3)),
    case("einsum", "i,i->", randn(4), randn(4)),
    case("einsum", "i,j->ij", randn(2), randn(3)),
    case("einsum", "...ij->...ji", randn(2, 3, 4)),
    case("einsum", "ij->", randint(2, 3)),
    case("einsum", "ij,j->i", randint(2, 3), randn(3)),
    case("einsum", "abc,cd,de->abe", randn(2, 2, 3), randn(3, 2), randn(2, 2)),
    case("inner", randn(3), randn(3)),
    case("inner", randn(2, 3), randn(4, 3)),
    case("inner", randint(3), randn(3)),
    case("inner", randn(3), 2.0),
    case("outer", randn(3), randn(2)),
    case("outer", randn(2, 2), randint(3)),
    case("vdot", randn(4), randn(4)),
    case("vdot", randn(2, 2), randn(4)),
    case("vdot", randint(3), randint(3)),
    case("vdot", np.array([1 + 2j, 3 - 1j], "complex64"), np.array([2 - 1j, 1j], "complex64")),
    case("kron", randn(2, 2), randn(2, 3)),
    case("kron", randn(3), randint(2)),
    case("kron", randn(2, 2), randn(3)),
    case("cross", randn(3), randn(3)),
    case("cross", randn(4, 3), randn(3)),
    case("cross", randn(4, 2), randn(4, 2)),
    case("cross", randn(2), randn(4, 3)),
    case("cross", randn(3, 4), randn(4, 3), axisa=0, axisb=1),
    case("cross", randn(3, 4), randn(3, 4), axisa=0, axisb=0, axisc=0),
    case("cross", randn(3, 4), randn(3, 4), axis=0),
    case("cross", randint(2, 3), randint(2, 3)),
    case("correlate", randn(5), randn(3)),
    case("correlate", randn(5), randn(3), "same"),
    case("correlate", randn(5), randn(2), mode="same"),
    case("correlate", randn(4), randn(3), mode="full"),
    case("correlate", randn(3), randn(5), "valid"),
    case("correlate", randint(4), randint(2)),
    case("corrcoef", randn(3, 5)),
    case("corrcoef", randn(5)),
    case("corrcoef", randint(2, 6)),
    case("slogdet", SQUARE[0]),
    case("slogdet", SQUARE),
    case("slogdet", -SQUARE[0]),
    case("slogdet", SQUARE.astype("float64")),
]


def _vectorized(ops, fn):
    """The vectorized function called on a matrix and a vector."""
    return fn(ops.convert_to_tensor(M), ops.convert_to_tensor(M[0]))


MISC = [
    case("view", randn(2, 3), "int32"),
    case("view", randint(2, 3, low=0, high=1 << 20), "float32"),
    case("view", randint(4, low=-5, high=5, dtype="int8"), "uint8"),
    case("view", randn(2, 3), "uint8"),
    case("view", randint(2, 4, low=0, high=255, dtype="uint8"), "int16"),
    case("vectorize", Fn(lambda ops, a, b: ops.add(a, ops.multiply(b, 2.0)))).then(_vectorized),
    case("vectorize", Fn(lambda ops, a, b: ops.dot(a, b)), signature="(n),(n)->()").then(
        _vectorized
    ),
    case(
        "vectorize", Fn(lambda ops, a, b: ops.subtract(a, ops.mean(b))), signature="(n),(n)->(n)"
    ).then(_vectorized),
]

CASES = SHAPE + INDEXING + REDUCTIONS_EXTRA + QUANTILES + SORTING + PRODUCTS + MISC
TESTED = ops_in(CASES)


@pytest.mark.parametrize("c", params(CASES))
def test_parity(c):
    c.run()


@pytest.mark.parametrize(
    ("axis", "shape"), [(-1, ()), (0, ()), (None, (1,))], ids=["last", "zero", "none"]
)
def test_argsort_of_a_scalar_is_one_position(axis, shape):
    got = BACKEND.convert_to_numpy(BACKEND.argsort(np.array(2.5, "float32"), axis=axis))
    assert got.shape == shape and got.dtype == np.int32 and not got.any()


@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_sort_of_a_scalar_along_an_axis_is_a_value_error_as_in_numpy(axis):
    """NumPy's AxisError (a ValueError) on every backend; before, torch returned the value."""
    with pytest.raises(ValueError, match=f"ops.sort: axis {axis} is out of bounds .* rank 0"):
        BACKEND.sort(np.array(2.5, "float32"), axis=axis)


@pytest.mark.parametrize("axis", [1, -2, 5])
def test_argsort_of_a_scalar_refuses_an_axis_beyond_its_one_element(axis):
    """As NumPy's AxisError; before, numpy, jax and tensorflow took any axis."""
    with pytest.raises(ValueError, match=f"ops.argsort: axis {axis} is out of bounds .* rank 0"):
        BACKEND.argsort(np.array(2.5, "float32"), axis=axis)


@pytest.mark.parametrize(
    ("mode", "constant_values", "message"),
    [
        ("foo", None, r"mode must be one of \('constant', .*'circular'\), received 'foo'"),
        ("edge", 1.0, "constant_values is only allowed with mode='constant', not 'edge'"),
    ],
)
def test_pad_refuses_an_unknown_mode_or_a_fill_value_alike_on_every_backend(
    mode, constant_values, message
):
    """The contract's ValueError; before, jax raised NotImplementedError for an unknown mode."""
    with pytest.raises(ValueError, match=f"ops.pad: {message}"):
        BACKEND.pad(np.ones(3, "float32"), [(1, 1)], mode=mode, constant_values=constant_values)
