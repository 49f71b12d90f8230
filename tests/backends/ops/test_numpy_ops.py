"""Parity of the numpy-kind ops, part 1: element-wise functions, comparisons and creation.

Shape, indexing, reduction, sorting and product ops are in `test_numpy_ops_arrays.py`.
"""

import numpy as np
import pytest

from tests.backends.ops.cases import Var, case, f32, ops_in, params
from tests.backends.ops.harness import BACKEND, randint, randn, to_backend, uniform

F16_TOL = 2e-3  # float16 carries ~3 decimal digits; frameworks round intermediate steps differently

# op -> (float domain, int domain or None): inputs are drawn inside the op's domain.
UNARY_FLOAT = {
    "sin": ((-3, 3), (-3, 4)),
    "cos": ((-3, 3), (-3, 4)),
    "tan": ((-1.2, 1.2), (-1, 2)),
    "sinh": ((-3, 3), (-3, 4)),
    "cosh": ((-3, 3), (-3, 4)),
    "tanh": ((-3, 3), (-3, 4)),
    "arcsin": ((-0.99, 0.99), (-1, 2)),
    "arccos": ((-0.99, 0.99), (-1, 2)),
    "arctan": ((-5, 5), (-5, 5)),
    "arcsinh": ((-5, 5), (-5, 5)),
    "arccosh": ((1.01, 5), (1, 6)),
    "arctanh": ((-0.99, 0.99), (0, 1)),
    "exp": ((-3, 3), (-3, 4)),
    "exp2": ((-3, 3), (-3, 4)),
    "expm1": ((-3, 3), (-3, 4)),
    "log": ((0.1, 5), (1, 9)),
    "log10": ((0.1, 5), (1, 9)),
    "log2": ((0.1, 5), (1, 9)),
    "log1p": ((-0.9, 5), (0, 9)),
    "sqrt": ((0, 5), (0, 9)),
    "cbrt": ((-5, 5), (-8, 9)),
    "i0": ((-3, 3), (-3, 4)),
    "sinc": ((-3, 3), (-3, 4)),
    "deg2rad": ((-360, 360), (-360, 360)),
    "rad2deg": ((-7, 7), (-7, 7)),
    "reciprocal": ((0.5, 4), None),
}

# op -> which extra input kinds are meaningful: "i" ints, "b" bools
UNARY_SAME = {
    "abs": "ib",
    "absolute": "ib",
    "fabs": "",
    "negative": "i",
    "square": "ib",
    "sign": "i",
    "ceil": "ib",
    "floor": "ib",
    "trunc": "ib",
    "round": "ib",
    "copy": "ib",
    "conj": "ib",
    "conjugate": "ib",
    "real": "ib",
    "imag": "ib",
    "isfinite": "ib",
    "isinf": "ib",
    "isnan": "ib",
    "isneginf": "ib",
    "isposinf": "ib",
    "isreal": "ib",
    "signbit": "ib",
}

SPECIAL = np.array([0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, np.nan, 3.0], "float32")
COMPLEX = (randn(2, 3) + 1j * randn(2, 3)).astype("complex64")


def _unary_float_cases():
    for op, ((lo, hi), ints) in UNARY_FLOAT.items():
        yield case(op, uniform(2, 3, low=lo, high=hi))
        yield case(op, uniform(4, low=lo, high=hi, dtype="float64"))
        yield case(op, np.array((lo + hi) / 2, "float32"))
        yield case(op, np.zeros((0, 3), "float32"))
        yield case(op, uniform(3, low=lo, high=hi, dtype="float16")).tol(F16_TOL)
        if ints:
            yield case(op, randint(2, 3, low=ints[0], high=ints[1]))
            yield case(op, randint(4, low=max(ints[0], 0), high=ints[1], dtype="uint8"))


def _unary_same_cases():
    for op, kinds in UNARY_SAME.items():
        yield case(op, randn(2, 3) * 3)
        yield case(op, randn(4).astype("float64") * 3)
        yield case(op, np.zeros((0, 2), "float32"))
        yield case(op, SPECIAL)
        if "i" in kinds:
            yield case(op, randint(2, 3, low=-5, high=5))
            yield case(op, randint(4, low=0, high=9, dtype="uint8"))
            yield case(op, randint(4, low=-9, high=9, dtype="int8"))
        if "b" in kinds:
            yield case(op, randn(3) > 0)


UNARY = [
    *_unary_float_cases(),
    *_unary_same_cases(),
    *(
        case(op, COMPLEX)
        for op in (
            "abs",
            "absolute",
            "conj",
            "conjugate",
            "real",
            "imag",
            "angle",
            "isreal",
            "negative",
            "square",
            "exp",
            "sqrt",
            "isfinite",
        )
    ),
    case("angle", randn(2, 3)),
    case("angle", randint(4, low=-3, high=3)),
    case("isreal", np.array([1 + 0j, 1 + 1j], "complex128")),
    case("sign", np.array([-2 + 0j, 0j], "complex64")),
    case("round", randn(2, 3) * 10, 1),
    case("round", randn(4) * 100, decimals=2),
    case("round", np.array([0.5, 1.5, 2.5, -0.5, -1.5], "float32")),  # halves go to even
    case("round", np.array([14, 26, -37], "int32"), -1),
    case("round", randn(3) * 1000, -2),
    case("logical_not", randn(2, 3) > 0),
    case("logical_not", randint(4, low=-1, high=2)),
    case("logical_not", np.array([0.0, 1.5, -0.0], "float32")),
    case("bitwise_invert", randint(2, 3, low=-9, high=9)),
    case("bitwise_invert", randint(4, low=0, high=255, dtype="uint8")),
    case("bitwise_invert", randn(3) > 0),
    case("bitwise_not", randint(2, 3, low=-9, high=9, dtype="int16")),
    case("bitwise_not", randn(3) > 0),
    case("exp", 1.0),
    case("sqrt", 4),
    case("negative", Var(randn(3))),
    case("reciprocal", np.array([1, 2, 4], "int32")),
    case("nan_to_num", SPECIAL),
    case("nan_to_num", SPECIAL, nan=-1.0, posinf=9.0, neginf=-9.0),
    case("nan_to_num", SPECIAL.astype("float64"), 5.0).wide(),
    case("nan_to_num", randint(3)),
    case("clip", randn(2, 3), -0.5, 0.5),
    case("clip", randint(2, 3, low=-9, high=9), -2, 3),
    case("clip", randint(5, low=-9, high=9), -2.5, 3.5),
    case("clip", randn(2, 3), np.full((3,), -0.1, "float32"), randn(2, 1) + 1),
    case("clip", randint(4, low=0, high=255, dtype="uint8"), 10, 200),
    case("clip", randn(3) > 0, 0, 1),
]

# Binary operand pairs, broadcasting and mixing dtypes (the dtype of the result matters).
GENERAL_PAIRS = [
    (randn(2, 3), randn(2, 3)),
    (randn(2, 1, 3), randn(4, 1)),
    (randn(3), 2.0),
    (3, randn(3)),
    (randint(2, 3, low=-5, high=5), randint(3, low=-5, high=5)),
    (randint(2, 3, low=-5, high=5), randn(2, 3)),
    (randint(3, low=-5, high=5, dtype="int8"), randint(3, low=-5, high=5, dtype="int16")),
    (randint(3, low=0, high=9, dtype="uint8"), randint(3, low=-5, high=5, dtype="int8")),
    (randint(3, low=0, high=9, dtype="uint8"), 3),
    (randint(3, low=-5, high=5), 2.5),
    (randn(3).astype("float16"), 2.0),
    (randn(3), randn(3).astype("float64")),
    (randn(3) > 0, randint(3, low=-5, high=5)),
    (randn(2, 3) > 0, 1.5),
    (np.zeros((0, 3), "float32"), randn(3)),
    (randn(3).astype("float16"), randint(3, dtype="int32")),
]
POSITIVE_DIVISOR_PAIRS = [
    (randn(2, 3), uniform(2, 3, low=0.5, high=2.0)),
    (randn(2, 1, 3), -uniform(4, 1, low=0.5, high=2.0)),
    (randint(2, 3, low=-9, high=9), randint(3, low=1, high=4)),
    (randint(2, 3, low=-9, high=9), -randint(3, low=1, high=4)),
    (randint(4, low=0, high=99, dtype="uint8"), randint(4, low=1, high=9, dtype="uint8")),
    (randint(4, low=-9, high=9), 2.5),
    (7, randint(4, low=1, high=4)),
    (randn(3), 2),
    (randint(3, low=-9, high=9, dtype="int8"), randint(3, low=1, high=4, dtype="int16")),
    (randn(3), randint(3, low=1, high=4)),
    (np.zeros((0, 2), "float32"), uniform(2, low=1, high=2)),
]
ARITHMETIC = ("add", "subtract", "multiply", "maximum", "minimum", "fmax", "fmin")
COMPARISON = ("equal", "not_equal", "greater", "greater_equal", "less", "less_equal")
DIVISION = ("divide", "true_divide", "floor_divide", "mod", "fmod")
FLOAT_BINARY = ("arctan2", "hypot", "logaddexp", "logaddexp2")
LOGICAL = ("logical_and", "logical_or", "logical_xor")
BITWISE = ("bitwise_and", "bitwise_or", "bitwise_xor")
SHIFTS = ("bitwise_left_shift", "bitwise_right_shift", "left_shift", "right_shift")
WITH_NAN = (f32([np.nan, 1.0, 2.0, np.nan]), f32([0.0, np.nan, 3.0, np.nan]))
INTS = (randint(2, 3, low=-20, high=20), randint(3, low=-20, high=20))
STEP_FROM = np.array([1.0, 1.0, -3.0, -2.0], "float32")

BINARY = [
    *(case(op, a, b) for op in ARITHMETIC + COMPARISON for a, b in GENERAL_PAIRS),
    *(case(op, *WITH_NAN) for op in ARITHMETIC + COMPARISON),
    *(case(op, a, b) for op in DIVISION for a, b in POSITIVE_DIVISOR_PAIRS),
    *(case(op, a, b) for op in FLOAT_BINARY for a, b in GENERAL_PAIRS[:6] + GENERAL_PAIRS[9:12]),
    case(
        "arctan2",
        np.array([0.0, 0.0, -0.0, 1.0, -1.0], "float32"),
        np.array([0.0, -1.0, -1.0, 0.0, 0.0], "float32"),
    ),
    case("add", Var(randn(3)), randn(3)),
    case("multiply", Var(randint(3)), Var(randint(3))),
    case("add", randn(2, 3) + 1j * randn(2, 3), randn(3)),
    case("multiply", COMPLEX, COMPLEX),
    case("divide", randn(3), np.array([0.0, -0.0, 1.0], "float32")),  # +-inf and nan, as IEEE says
    case("divide_no_nan", randn(3), np.array([0.0, 2.0, -0.0], "float32")),
    case("divide_no_nan", randint(2, 3, low=-9, high=9), np.array([0, 2, 3], "int32")),
    case("divide_no_nan", np.zeros(3, "float32"), np.zeros(3, "float32")),
    case("power", uniform(2, 3, low=0.1, high=3), randn(2, 3)),
    case("power", uniform(2, 3, low=0.1, high=3), 2),
    case("power", randint(2, 3, low=-4, high=4), randint(3, low=0, high=4)),
    case("power", randint(3, low=-4, high=4), 2.0),
    case("power", 2, randint(4, low=0, high=5)),
    case("power", randint(3, low=1, high=4), 0.5),
    case("power", randint(3, high=9, dtype="uint8"), randint(3, high=3, dtype="uint8")),
    case("power", randn(3), np.array([0.0, 1.0, 2.0], "float32")),
    case("power", randint(3, low=-4, high=4), np.array([True, False, True])),
    *(case(op, randn(2, 3) > 0, randn(3) > 0) for op in LOGICAL),
    *(case(op, randint(2, 3, low=-2, high=2), randn(3)) for op in LOGICAL),
    *(case(op, randn(3) > 0, 0) for op in LOGICAL),
    *(case(op, *INTS) for op in BITWISE + ("gcd", "lcm")),
    *(case(op, randn(2, 3) > 0, randn(3) > 0) for op in BITWISE),
    *(
        case(op, randint(4, high=200, dtype="uint8"), randint(4, high=200, dtype="uint8"))
        for op in BITWISE + ("gcd", "lcm")
    ),
    *(case(op, randint(3, low=-20, high=20, dtype="int16"), 6) for op in BITWISE + ("gcd", "lcm")),
    *(
        case(op, randint(3, low=-20, high=20, dtype="int8"), randint(3, dtype="int16"))
        for op in BITWISE
    ),
    case("gcd", np.array([0, 0, 12, -12], "int32"), np.array([0, 5, -18, 0], "int32")),
    case("lcm", np.array([0, 4, 12, -3], "int32"), np.array([5, 6, -18, 7], "int32")),
    *(case(op, randint(2, 3, low=-50, high=50), randint(3, low=0, high=4)) for op in SHIFTS),
    *(
        case(op, randint(4, high=60, dtype="uint8"), randint(4, low=0, high=3, dtype="uint8"))
        for op in SHIFTS
    ),
    *(case(op, randint(3, low=-50, high=50, dtype="int16"), 2) for op in SHIFTS),
    case("heaviside", f32([-1.5, 0.0, 2.0, 0.0]), f32([0.5, 0.5, 0.5, 1.0])),
    case("heaviside", randint(2, 3, low=-2, high=2), 0.5),
    case("heaviside", randn(2, 3), randn(3)),
    case("nextafter", randn(2, 3), randn(2, 3)),
    # The direction of each step, away from 0 (subnormals may be flushed to zero on CPUs).
    case("nextafter", STEP_FROM, np.array([2.0, 0.0, 5.0, -2.0], "float32")).then(
        lambda ops, r: ops.sign(ops.subtract(r, STEP_FROM))
    ),
    case("nextafter", np.array([1.0], "float64"), np.array([2.0], "float64"))
    .then(lambda ops, r: ops.subtract(ops.multiply(r, 2.0**52), 2.0**52))
    .wide(),
    case("ldexp", randn(2, 3), randint(2, 3, low=-3, high=4)),
    case("ldexp", randn(3).astype("float64"), randint(3, low=-3, high=4)),
    case("ldexp", randn(3), 3),
    case("ldexp", randint(3, low=-3, high=3), randint(3, low=0, high=3)),
    case(
        "isclose",
        np.array([1.0, 1.0, np.nan, np.inf], "float32"),
        np.array([1.0 + 1e-6, 1.1, np.nan, np.inf], "float32"),
    ),
    case("isclose", randn(2, 3), randn(3), 0.5, 0.5),
    case(
        "isclose",
        np.array([1.0, np.nan], "float32"),
        np.array([1.0, np.nan], "float32"),
        1e-5,
        1e-8,
        True,
    ),
    case("isclose", randint(3), randint(3)),
    case("allclose", randn(2, 3), randn(2, 3)),
    case("allclose", np.ones(3, "float32"), np.ones(3, "float32") + 1e-7),
    case(
        "allclose",
        np.array([1.0, np.nan], "float32"),
        np.array([1.0, np.nan], "float32"),
        1e-5,
        1e-8,
        True,
    ),
    case("allclose", randn(2, 3), randn(3), 10.0, 10.0),
]


def _float_creation():
    for op in ("zeros", "ones", "empty"):
        for shape in ((2, 3), 4, (), (0, 2)):
            yield case(op, shape)
        for dtype in ("float32", "float64", "float16", "int32", "int64", "uint8", "bool", "int8"):
            yield case(op, (2, 3), dtype)
    for op in ("zeros_like", "ones_like", "empty_like"):
        for x in (randn(2, 3), randint(4), randn(3) > 0, randn(2).astype("float64"), randn(0, 3)):
            yield case(op, x)
        for dtype in ("int32", "float64", "bool", "float16", "uint8"):
            yield case(op, randn(2, 3), dtype=dtype)


def _shape_and_dtype(ops, result):
    return ops.shape(result), ops.dtype(result)


CREATION = [
    *(c.then(_shape_and_dtype) if c.op.startswith("empty") else c for c in _float_creation()),
    case("full", (2, 3), 1.5),
    case("full", (2, 3), 7),
    case("full", 3, True),
    case("full", (2, 3), 7, "float64"),
    case("full", (2, 3), 1.5, dtype="int32"),
    case("full", (2, 3), np.array([1.0, 2.0, 3.0], "float32")),
    case("full", (2, 2), np.array(5, "int8")),
    case("full", (0, 3), 2.0),
    case("full_like", randn(2, 3), 2),
    case("full_like", randint(2, 3), 2.7),
    case("full_like", randint(4), 1.5, "float32"),
    case("full_like", randn(3) > 0, 1),
    case("full_like", randn(2, 3), np.array([1.0, 2.0, 3.0], "float32")),
    case("arange", 5),
    case("arange", 2, 9, 3),
    case("arange", 10, 0, -2),
    case("arange", 1.0, 3.0, 0.5),
    case("arange", 0, 1, 0.25),
    case("arange", 5, dtype="float32"),
    case("arange", 0, 10, 3, dtype="float64"),
    case("arange", 3, 2),
    case("arange", np.array(4, "int32")),
    case("linspace", 0.0, 1.0, 5),
    case("linspace", 0, 10, 4, endpoint=False),
    case("linspace", 0.0, 1.0, 5, retstep=True),
    case("linspace", 2, 3, 1),
    case("linspace", 0, 9, 4, dtype="int32"),
    case("linspace", -1.0, 1.0, 7, dtype="float64"),
    case("linspace", np.array([0.0, 1.0], "float32"), np.array([1.0, 3.0], "float32"), 5),
    case("linspace", np.array([0.0, 1.0], "float32"), np.array([1.0, 3.0], "float32"), 3, axis=-1),
    case("logspace", 0.0, 2.0, 5),
    case("logspace", 0, 3, 4, endpoint=False, base=2),
    case("logspace", -1.0, 1.0, 3, dtype="float64"),
    case("logspace", np.array([0.0, 1.0], "float32"), np.array([1.0, 2.0], "float32"), 3, axis=1),
    case("geomspace", 1.0, 1000.0, 4).tol(1e-5, 1e-5),
    case("geomspace", 1, 256, 9, endpoint=True),
    case("geomspace", 2.0, 32.0, 4, endpoint=False),
    case("geomspace", -1.0, -16.0, 5),
    case("geomspace", 1.0, 8.0, 4, dtype="float64"),
    case("geomspace", f32([1.0, 2.0]), f32([8.0, 32.0]), 4, axis=-1),
    case("eye", 3),
    case("eye", 3, 4),
    case("eye", 4, 3, 1),
    case("eye", 3, k=-1, dtype="int32"),
    case("eye", 2, 5, k=2, dtype="bool"),
    case("identity", 3),
    case("identity", 4, "int32"),
    case("identity", 1, dtype="float64"),
    case("tri", 3),
    case("tri", 3, 5, 1),
    case("tri", 4, 2, k=-1, dtype="int32"),
    case("tri", 2, dtype="bool"),
    case("array", [[1, 2], [3, 4]]),
    case("array", [1.5, 2.5]),
    case("array", randn(2, 3), "float64"),
    case("array", randint(3), dtype="float32"),
    case("array", [True, False]),
    *(case(op, n) for op in ("bartlett", "blackman", "hamming", "hanning") for n in (0, 1, 5, 8)),
    case("kaiser", 6, 5.0),
    case("kaiser", 1, 2.0),
    case("kaiser", 7, 0.0),
    case("kaiser", 8, beta=14.0),
    case("vander", randn(4)),
    case("vander", randn(3), 5),
    case("vander", randint(4, low=-3, high=3), 3, True),
    case("vander", randn(3), N=0),
]

CASES = UNARY + BINARY + CREATION
TESTED = ops_in(CASES)


@pytest.mark.parametrize("c", params(CASES))
def test_parity(c):
    c.run()


@pytest.mark.parametrize(
    ("base", "exponent"),
    [
        (np.array([1, 2, 3], "int32"), -1),
        (np.array([1, 2, 3], "int32"), np.array([2, -1, 0], "int32")),
        (2, np.array([1, -2], "int32")),
        (np.array([1, 2], "int8"), np.array([-1, 1], "int16")),
    ],
)
def test_integers_to_negative_integer_powers_are_a_value_error_as_in_numpy(base, exponent):
    base, exponent = to_backend(base), to_backend(exponent)
    with pytest.raises(ValueError, match="^ops.power: Integers to negative integer powers"):
        BACKEND.power(base, exponent)
