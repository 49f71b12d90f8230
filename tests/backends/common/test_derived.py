"""The derived ops (written once over a backend's other ops) against NumPy / SciPy / hand values.

Each check runs the op on the numpy backend and compares values, shapes and dtypes with an
independent reference. On another backend (TRIPOD_BACKEND), one case per op also runs there,
eagerly and inside the backend's compiled step (jax.jit, tf.function), against the numpy backend.
"""

import colorsys
import inspect
import math
import warnings

import numpy as np
import pytest
import scipy.ndimage
import scipy.spatial.distance

from tests import accelerator
from tests.backends.ops.harness import assert_same
from tripod.backends import active, contract, load
from tripod.backends.common import derived

NP = load("numpy")
RNG = np.random.default_rng(7)

DERIVED = [
    "absolute",
    "fabs",
    "conj",
    "conjugate",
    "true_divide",
    "bitwise_not",
    "left_shift",
    "right_shift",
    "array",
    "empty",
    "empty_like",
    "identity",
    "ravel",
    "size",
    "ndim",
    "hstack",
    "vstack",
    "dstack",
    "hsplit",
    "vsplit",
    "dsplit",
    "fliplr",
    "flipud",
    "rot90",
    "swapaxes",
    "moveaxis",
    "average",
    "ptp",
    "trapezoid",
    "vander",
    "corrcoef",
    "heaviside",
    "sinc",
    "isneginf",
    "isposinf",
    "isreal",
    "divide_no_nan",
    "logaddexp2",
    "deg2rad",
    "rad2deg",
    "allclose",
    "inner",
    "vdot",
    "outer",
    "kron",
    "cross",
    "select",
    "tri",
    "geomspace",
    "logspace",
    "bartlett",
    "blackman",
    "hamming",
    "hanning",
    "kaiser",
    "nanmean",
    "nansum",
    "nanprod",
    "nanmax",
    "nanmin",
    "nanargmax",
    "nanargmin",
    "nancumsum",
    "nancumprod",
    "nanvar",
    "nanstd",
    "nanmedian",
    "nanpercentile",
    "nanquantile",
    "percentile",
    "rearrange",
    "psnr",
    "glu",
    "hard_sigmoid",
    "hard_silu",
    "hard_swish",
    "hard_tanh",
    "hard_shrink",
    "soft_shrink",
    "tanh_shrink",
    "squareplus",
    "sparse_plus",
    "sparse_sigmoid",
    "sparsemax",
    "celu",
    "selu",
    "threshold",
    "relu6",
    "softsign",
    "swish",
    "separable_conv",
    "conv_with_bias",
    "matmul_with_bias",
    "update_average",
    "batch_norm_training",
    "lstm_sequence",
    "normalize",
    "rms_normalization",
    "polar",
    "space_to_depth",
    "depth_to_space",
    "multi_hot",
    "extract_sequences",
    "stft",
    "istft",
    "in_top_k",
    "logdet",
    "view_as_real",
    "view_as_complex",
    "cdist",
    "cholesky_inverse",
    "matrix_rank",
    "rgb_to_grayscale",
    "rgb_to_hsv",
    "hsv_to_rgb",
    "crop_images",
    "pad_images",
    "sobel_edges",
    "gaussian_blur",
    "ssim",
    "extract_patches",
    "extract_patches_3d",
    "elastic_transform",
    "perspective_transform",
    "affine_transform",
    "unstack",
]


def randn(*shape, dtype="float32"):
    return RNG.standard_normal(shape).astype(dtype)


def uniform(*shape, low=0.0, high=1.0, dtype="float32"):
    return RNG.uniform(low, high, shape).astype(dtype)


def check(op, args, expected, atol=1e-5, **kwargs):
    """`ops.<op>(*args, **kwargs)` on the numpy backend matches `expected` (values and dtypes)."""
    result = getattr(NP, op)(*args, **kwargs)
    if isinstance(result, (list, tuple)):
        result = type(result)(np.asarray(r) for r in result)
    elif not isinstance(result, (int, float, bool)):
        result = np.asarray(result)
    assert_same(result, expected, atol=atol, rtol=atol, path=f"ops.{op}", backend=NP)
    return result


# -- the collection ------------------------------------------------------------------------------
def test_derived_ops_are_exactly_the_listed_ones():
    assert sorted(derived.OPS) == sorted(DERIVED)


@pytest.mark.parametrize("name", DERIVED)
def test_derived_signature_is_the_contract_one(name):
    own = list(inspect.signature(derived.OPS[name]).parameters.values())
    assert own[0].name == "ops"
    stub = list(inspect.signature(contract.OPS[name]).parameters.values())
    assert [(p.name, p.default, p.kind) for p in own[1:]] == [
        (p.name, p.default, p.kind) for p in stub
    ]


def test_numpy_backend_uses_every_derived_op():
    assert not NP.missing
    for name in DERIVED:
        fn = getattr(NP, name)
        if contract.KIND_OF[name] != "hooks":  # ops are wrapped to translate errors; hooks are not
            fn = fn.__wrapped__
        assert fn.func is derived.OPS[name]


# -- numpy kind: aliases and constructors --------------------------------------------------------
def test_aliases():
    i = np.array([3, -2, 7], "int32")
    c = np.array([1 + 2j, -3j], "complex64")
    check("absolute", (i,), np.abs(i))
    check("fabs", (i,), np.fabs(i).astype("float32"))
    x = randn(4, dtype="float64")
    check("fabs", (x,), np.fabs(x))
    check("conj", (c,), np.conj(c))
    check("conjugate", (c.astype("complex128"),), np.conj(c).astype("complex128"))
    check("conj", (i,), i)
    check("true_divide", (i, np.array([2, 4, 8], "int32")), (i / [2, 4, 8]).astype("float32"))
    check("bitwise_not", (i,), np.invert(i))
    check("bitwise_not", (np.array([True, False]),), np.array([False, True]))
    check(
        "left_shift", (i, np.array([1, 2, 3], "int32")), np.left_shift(i, [1, 2, 3]).astype("int32")
    )
    check("right_shift", (i, 1), np.right_shift(i, 1))


def test_constructors():
    check("array", ([1, 2],), np.array([1, 2], "int32"))
    check("array", ([1.0, 2.0],), np.array([1, 2], "float32"))
    check("array", ([1, 2],), np.array([1, 2], "float64"), dtype="float64")
    result = NP.empty((2, 3))
    assert result.shape == (2, 3) and result.dtype == np.float32
    result = NP.empty_like(np.zeros((4,), "int8"), dtype="uint8")
    assert result.shape == (4,) and result.dtype == np.uint8
    check("identity", (3,), np.eye(3, dtype="float32"))
    check("identity", (2,), np.eye(2, dtype="int32"), dtype="int32")
    check("tri", (3,), np.tri(3, dtype="float32"))
    check("tri", (3, 5, -1), np.tri(3, 5, -1, dtype="int32"), dtype="int32")
    check("tri", (2, 4, 2), np.tri(2, 4, 2, dtype="bool"), dtype="bool")


def test_shape_queries():
    x = np.zeros((2, 3, 4), "float32")
    check("ravel", (np.arange(6).reshape(2, 3),), np.arange(6))
    assert NP.size(x) == 24 and isinstance(NP.size(x), int)
    assert NP.size(np.float32(3.0)) == 1
    assert NP.ndim(x) == 3 and NP.ndim(5.0) == 0


# -- numpy kind: joining, splitting, flipping ----------------------------------------------------
def test_stacking():
    a, b = np.arange(3, dtype="int32"), np.arange(3, 6, dtype="int32")
    m = np.arange(6, dtype="float32").reshape(2, 3)
    for op, fn in (("hstack", np.hstack), ("vstack", np.vstack), ("dstack", np.dstack)):
        check(op, ([a, b],), fn([a, b]))
        check(op, ([m, m],), fn([m, m]))
        check(op, ([np.int32(1), np.int32(2)],), fn([np.int32(1), np.int32(2)]))
    check("hstack", ([a, b.astype("float32")],), np.hstack([a, b]).astype("float32"))
    check("dstack", ([m[None], m[None]],), np.dstack([m[None], m[None]]))


def test_splitting():
    x = np.arange(48).reshape(4, 4, 3)
    for op, fn in (("hsplit", np.hsplit), ("vsplit", np.vsplit)):
        check(op, (x, 2), list(fn(x, 2)))
        check(op, (x, [1, 3]), list(fn(x, [1, 3])))
    check("hsplit", (np.arange(6), 3), list(np.hsplit(np.arange(6), 3)))
    check("dsplit", (x, 3), list(np.dsplit(x, 3)))
    check("dsplit", (x, [1]), list(np.dsplit(x, [1])))
    with pytest.raises(ValueError, match="ops.vsplit"):
        NP.vsplit(np.arange(4), 2)
    with pytest.raises(ValueError, match="ops.dsplit"):
        NP.dsplit(np.zeros((2, 2)), 2)


def test_flips_and_rotations():
    x = np.arange(24).reshape(2, 3, 4)
    check("fliplr", (x,), np.fliplr(x))
    check("flipud", (x,), np.flipud(x))
    for k in range(-2, 6):
        for axes in ((0, 1), (1, 2), (2, 0), (-1, -2)):
            check("rot90", (x,), np.rot90(x, k, axes), k=k, axes=axes)
    with pytest.raises(ValueError, match="ops.rot90"):
        NP.rot90(np.arange(3))
    with pytest.raises(ValueError, match="ops.rot90"):
        NP.rot90(x, axes=(1, 1))
    with pytest.raises(ValueError, match="ops.fliplr"):
        NP.fliplr(np.arange(3))


def test_axis_moves():
    x = np.zeros((2, 3, 4, 5))
    assert NP.swapaxes(x, 0, -1).shape == np.swapaxes(x, 0, -1).shape
    check("swapaxes", (np.arange(6).reshape(2, 3), 0, 1), np.arange(6).reshape(2, 3).T)
    for source, destination in ((0, -1), ([0, 1], [-1, 0]), ([3, 1], [0, 2]), (2, 2)):
        expected = np.moveaxis(np.arange(120).reshape(2, 3, 4, 5), source, destination)
        check("moveaxis", (np.arange(120).reshape(2, 3, 4, 5), source, destination), expected)
    with pytest.raises(ValueError, match="ops.moveaxis"):
        NP.moveaxis(x, [0, 0], [1, 2])
    with pytest.raises(ValueError, match="ops.swapaxes"):
        NP.swapaxes(x, 0, 4)


# -- numpy kind: statistics ----------------------------------------------------------------------
def test_average():
    x, w = randn(3, 4), uniform(4, low=0.5)
    check("average", (x,), np.float32(np.average(x)))
    check("average", (x, 1, w), np.average(x, axis=1, weights=w).astype("float32"))
    check("average", (x, None, np.abs(x)), np.float32(np.average(x, weights=np.abs(x))))
    w2 = uniform(4, 3, low=0.5)
    check("average", (x, (1, 0), w2), np.float32(np.average(x, axis=(1, 0), weights=w2)))
    check(
        "average", (np.arange(6).reshape(2, 3), 0, [1, 3]), np.array([2.25, 3.25, 4.25], "float32")
    )
    check(
        "average", (x, 1, w.astype("float64")), np.average(x, axis=1, weights=w).astype("float64")
    )
    with pytest.raises(ValueError, match="ops.average"):
        NP.average(x, 0, w)


def test_ptp_and_trapezoid():
    x = randn(3, 5)
    check("ptp", (x,), np.float32(np.ptp(x)))
    check("ptp", (x, 1, True), np.ptp(x, axis=1, keepdims=True))
    check("ptp", (np.array([[1, 9], [4, 2]], "int8"), 0), np.array([3, 7], "int8"))
    check("trapezoid", (x,), np.trapezoid(x).astype("float32"))
    check("trapezoid", (x, None, 0.5, 0), np.trapezoid(x, dx=0.5, axis=0).astype("float32"))
    points = np.sort(uniform(5))
    check("trapezoid", (x, points), np.trapezoid(x, points).astype("float32"))
    grid = np.sort(uniform(3, 5), axis=1)
    check("trapezoid", (x, grid, 1.0, 1), np.trapezoid(x, grid, axis=1).astype("float32"))
    check("trapezoid", (np.arange(4),), np.float32(np.trapezoid(np.arange(4))))


def test_vander():
    x = np.array([2, -1, 3], "int8")
    check("vander", (x,), np.vander(x).astype("int8"))
    check("vander", (x, 4, True), np.vander(x, 4, increasing=True).astype("int8"))
    f = randn(4, dtype="float64")
    check("vander", (f, 3), np.vander(f, 3))
    check("vander", (np.array([True, False]),), np.array([[True, True], [False, True]]))
    with pytest.raises(ValueError, match="ops.vander"):
        NP.vander(np.zeros((2, 2)))


def test_corrcoef():
    x = randn(3, 6, dtype="float64")
    check("corrcoef", (x,), np.corrcoef(x))
    check("corrcoef", (x.astype("float32"),), np.corrcoef(x).astype("float32"))
    check("corrcoef", (np.arange(5),), np.float32(1.0))
    ints = np.array([[1, 2, 4], [3, 1, 0]], "int32")
    check("corrcoef", (ints,), np.corrcoef(ints).astype("float32"))


# -- numpy kind: element-wise --------------------------------------------------------------------
def test_heaviside_and_sinc():
    x = np.array([-1.5, 0.0, 2.0, np.nan], "float32")
    check("heaviside", (x, 0.5), np.heaviside(x, np.float32(0.5)))
    check("heaviside", (x, np.array([3.0], "float64")), np.heaviside(x.astype("float64"), 3.0))
    check("heaviside", (np.array([-2, 0, 5], "int8"), 7), np.array([0, 7, 1], "float32"))
    f16 = np.array([-1, 0, 1], "float16")
    check("heaviside", (f16, 0.5), np.heaviside(f16, np.float16(0.5)))
    s = np.array([0.0, 0.5, -1.0, 2.25, 1e-9], "float32")
    check("sinc", (s,), np.sinc(s))
    check("sinc", (np.array([0, 1, 2]),), np.sinc([0, 1, 2]).astype("float32"))


def test_infinity_tests():
    x = np.array([-np.inf, np.inf, 1.0, np.nan, -0.0], "float32")
    check("isneginf", (x,), np.isneginf(x))
    check("isposinf", (x,), np.isposinf(x))
    check("isneginf", (np.array([1, -2], "int32"),), np.array([False, False]))
    check("isreal", (np.array([1 + 0j, 1 + 1e-3j], "complex64"),), np.array([True, False]))
    check("isreal", (x,), np.ones(5, bool))


def test_safe_arithmetic():
    a = np.array([1.0, -2.0, np.nan, 4.0], "float32")
    b = np.array([0.0, 4.0, 0.0, -0.0], "float32")
    check("divide_no_nan", (a, b), np.array([0.0, -0.5, 0.0, 0.0], "float32"))
    check(
        "divide_no_nan",
        (np.array([3, 4], "int32"), np.array([0, 8], "int32")),
        np.array([0.0, 0.5], "float32"),
    )
    x = np.array([-np.inf, -np.inf, 0.0, 3.0, np.inf, 1000.0, np.nan], "float64")
    y = np.array([-np.inf, 2.0, 0.0, -40.0, np.inf, 1000.0, 1.0], "float64")
    check("logaddexp2", (x, y), np.logaddexp2(x, y))
    check("logaddexp2", (x.astype("float32"), 1.0), np.logaddexp2(x, 1.0).astype("float32"))
    check("deg2rad", (np.array([0, 90, 180], "int32"),), np.deg2rad([0, 90, 180]).astype("float32"))
    check("rad2deg", (np.array([np.pi, 1.0]),), np.rad2deg([np.pi, 1.0]))
    assert bool(NP.allclose(a, a, equal_nan=True)) and not bool(NP.allclose(a, a))
    assert bool(NP.allclose([1.0, 2.0], [1.0, 2.0 + 1e-6])) and not bool(NP.allclose(1.0, 1.1))


# -- numpy kind: products ------------------------------------------------------------------------
def test_inner_vdot_outer():
    a, b = randn(2, 3), randn(4, 3)
    check("inner", (a, b), np.inner(a, b))
    check("inner", (a[0], b[0]), np.inner(a[0], b[0]))
    check("inner", (a, 2.0), a * 2)
    check("inner", (np.arange(3, dtype="int8"), np.arange(3, dtype="int8")), np.int8(5))
    with pytest.raises(ValueError, match="ops.inner"):
        NP.inner(a, randn(3, 2))
    z1 = (randn(2, 2) + 1j * randn(2, 2)).astype("complex64")
    z2 = (randn(2, 2) + 1j * randn(2, 2)).astype("complex64")
    check("vdot", (z1, z2), np.complex64(np.vdot(z1, z2)))
    check("vdot", (a, a), np.float32(np.vdot(a, a)))
    check("outer", (a, np.arange(3)), np.outer(a, np.arange(3)).astype("float32"))


def test_kron():
    for x, y in (
        (randn(2, 3), randn(4, 2)),
        (randn(2, 3), randn(4)),
        (randn(2), randn(2, 3, 2)),
        (np.arange(4, dtype="int8").reshape(2, 2), np.ones((3, 1), "int8")),
    ):
        check("kron", (x, y), np.kron(x, y).astype(np.result_type(x, y)))


def test_cross():
    a3, b3 = randn(4, 3), randn(4, 3)
    a2, b2 = randn(4, 2), randn(4, 2)
    check("cross", (a3, b3), np.cross(a3, b3))
    check("cross", (a2, b2), a2[:, 0] * b2[:, 1] - a2[:, 1] * b2[:, 0])
    a23 = np.cross(np.concatenate([a2, np.zeros((4, 1), "float32")], 1), b3)
    check("cross", (a2, b3), a23)
    b23 = np.cross(a3, np.concatenate([b2, np.zeros((4, 1), "float32")], 1))
    check("cross", (a3, b2), b23)
    ta, tb = randn(3, 5), randn(5, 3)
    check("cross", (ta, tb, 0, -1, 0), np.cross(ta, tb, axisa=0, axisb=-1, axisc=0))
    cube = randn(3, 2, 3)
    check("cross", (cube, cube[::-1]), np.cross(cube, cube[::-1], axis=0), axis=0)
    check("cross", ([1, 0, 0], [0, 1, 0]), np.array([0, 0, 1], "int32"))
    with pytest.raises(ValueError, match="ops.cross"):
        NP.cross(randn(4), randn(4))


def test_select():
    x = np.arange(-3, 4, dtype="int32")
    conds, choices = [x < -1, x > 1], [x * 10, x * 100]
    check("select", (conds, choices), np.select(conds, choices).astype("int32"))
    check("select", (conds, choices, 7.5), np.select(conds, choices, 7.5).astype("float32"))
    i8 = x.astype("int8")
    check("select", ([x > 0], [i8], -1), np.select([x > 0], [i8], -1).astype("int8"))
    f = randn(7)
    check(
        "select",
        ([x > 0, x > -2], [f, 1.0]),
        np.select([x > 0, x > -2], [f, 1.0]).astype("float32"),
    )
    with pytest.raises(ValueError, match="ops.select"):
        NP.select([x > 0], [x, x])


# -- numpy kind: ranges and windows --------------------------------------------------------------
def test_geomspace_and_logspace():
    check("geomspace", (1, 1000, 4), np.geomspace(1, 1000, 4).astype("float32"))
    check("geomspace", (-1.0, -1000.0, 5), np.geomspace(-1, -1000, 5).astype("float32"))
    check("geomspace", (2, 32, 4, False), np.geomspace(2, 32, 4, endpoint=False).astype("float32"))
    check("geomspace", (2, 32, 1), np.geomspace(2, 32, 1).astype("float32"))
    start, stop = np.array([1.0, 2.0]), np.array([10.0, 20.0])
    check("geomspace", (start, stop, 3), np.geomspace(start, stop, 3, axis=1), axis=1)
    check("geomspace", (start, stop, 3), np.geomspace(start, stop, 3))
    result = np.asarray(NP.geomspace(1, 1000, 4, dtype="int32"))
    assert result.dtype == np.int32 and result[0] == 1 and result[-1] == 1000
    check("logspace", (0, 3, 4), np.logspace(0, 3, 4).astype("float32"))
    check("logspace", (0.0, 3.0, 4, True, 2), np.logspace(0, 3, 4, base=2).astype("float32"))
    check("logspace", (0, 2, 4, False), np.logspace(0, 2, 4, endpoint=False).astype("float32"))
    check("logspace", (start, 3.0, 4), np.logspace(start, 3.0, 4, axis=-1), axis=-1)


@pytest.mark.parametrize("size", [0, 1, 2, 5, 8])
def test_windows(size):
    for op, fn in (
        ("bartlett", np.bartlett),
        ("blackman", np.blackman),
        ("hamming", np.hamming),
        ("hanning", np.hanning),
    ):
        check(op, (size,), fn(size).astype("float32"))
    check("kaiser", (size, 2.5), np.kaiser(size, 2.5).astype("float32"))
    check("hamming", (np.int32(size),), np.hamming(size).astype("float32"))


# -- numpy kind: NaN-aware reductions ------------------------------------------------------------
NAN_DATA = np.array(
    [[1.0, np.nan, 3.0, -2.0], [np.nan, np.nan, np.nan, np.nan], [2.0, 5.0, -1.0, 0.5]], "float32"
)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_nan_reductions(axis, keepdims):
    x = NAN_DATA if axis != 0 else NAN_DATA.T
    for op, fn in (
        ("nansum", np.nansum),
        ("nanprod", np.nanprod),
        ("nanmean", np.nanmean),
        ("nanvar", np.nanvar),
        ("nanstd", np.nanstd),
        ("nanmax", np.nanmax),
        ("nanmin", np.nanmin),
        ("nanmedian", np.nanmedian),
    ):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            expected = fn(x, axis=axis, keepdims=keepdims)
        check(op, (x, axis, keepdims), np.asarray(expected, "float32"))


def test_nan_reductions_of_integers_use_the_plain_ops():
    x = np.array([[1, 4, 2], [7, 0, 3]], "int8")
    check("nansum", (x, 1), np.array([7, 10], "int32"))
    check("nanprod", (x.astype("uint8"),), np.uint32(0))
    check("nanmean", (x,), np.float32(17 / 6))
    check("nanmax", (x, 0), np.array([7, 4, 3], "int8"))
    check("nanargmin", (x, 1), np.array([0, 1], "int32"))
    check("nanvar", (x,), np.float32(np.var(x)))
    check("nanmedian", (x, 1), np.array([2, 3], "float32"))
    check("nancumsum", (x, 1), np.cumsum(x, axis=1).astype("int8"))


def test_nan_arg_reductions():
    x = NAN_DATA
    check("nanargmax", (x, 1), np.array([2, -1, 1], "int32"))
    check("nanargmin", (x, 1), np.array([3, -1, 2], "int32"))
    check("nanargmax", (x, 1, True), np.array([[2], [-1], [1]], "int32"))
    check("nanargmax", (x,), np.int32(9))
    check("nanargmin", (x.T, 0), np.array([3, -1, 2], "int32"))
    check("nanargmin", (np.full((2,), np.nan, "float64"),), np.int32(-1))


def test_nan_cumulative():
    x = NAN_DATA
    check("nancumsum", (x,), np.nancumsum(x))
    check("nancumsum", (x, 1), np.nancumsum(x, axis=1))
    check("nancumprod", (x, 0), np.nancumprod(x, axis=0))
    check("nancumsum", (x, 1, "float64"), np.nancumsum(x, axis=1, dtype="float64"))


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_quantiles(method):
    x = randn(4, 7)
    x[0, 2] = x[1, :] = x[3, 0] = x[3, 5] = np.nan
    q = np.array([0.0, 0.25, 0.5, 0.9, 1.0], "float32")
    for axis, keepdims in ((1, False), (None, False), (0, True), ((0, 1), True)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            expected = np.nanquantile(
                x.astype("float64"), q, axis=axis, method=method, keepdims=keepdims
            )
            scalar = np.nanquantile(
                x.astype("float64"), 0.3, axis=axis, method=method, keepdims=keepdims
            )
        check("nanquantile", (x, q, axis, method, keepdims), expected.astype("float32"))
        check("nanquantile", (x, 0.3, axis, method, keepdims), scalar.astype("float32"))
        check("nanpercentile", (x, q * 100, axis, method, keepdims), expected.astype("float32"))
    clean = randn(3, 6, dtype="float64")
    expected = np.percentile(clean, [10.0, 50.0], axis=1, method=method)
    check("percentile", (clean, [10.0, 50.0], 1, method), expected)


def test_nanquantile_errors():
    with pytest.raises(ValueError, match="ops.nanquantile"):
        NP.nanquantile(randn(3), 0.5, method="cubic")
    with pytest.raises(ValueError, match="ops.nanquantile"):
        NP.nanquantile(randn(3), np.zeros((2, 2)))


# -- numpy kind: rearrange -----------------------------------------------------------------------
def test_rearrange():
    x = np.arange(2 * 3 * 4).reshape(2, 3, 4)
    check("rearrange", (x, "b h w -> b w h"), x.transpose(0, 2, 1))
    check("rearrange", (x, "b h w -> b (h w)"), x.reshape(2, 12))
    check("rearrange", (x, "b h w -> (w b) h"), x.transpose(2, 0, 1).reshape(8, 3))
    split = x.reshape(2, 3, 2, 2).transpose(0, 3, 1, 2)
    check("rearrange", (x, "b h (w1 w2) -> b w2 h w1"), split, w1=2)
    check("rearrange", (x, "b h (w1 w2) -> b w2 h w1"), split, w2=2, w1=2)
    check("rearrange", (x, "... w -> w ..."), x.transpose(2, 0, 1))
    check("rearrange", (x, "b ... -> b (...)"), x.reshape(2, 12))
    check("rearrange", (x, "b h w -> b 1 h w ()"), x[:, None, :, :, None])
    check("rearrange", (x[:, None], "b 1 h w -> (b h) w"), x.reshape(6, 4))
    check("rearrange", (x, "b h w->h b w"), x.transpose(1, 0, 2))
    for pattern, lengths in (
        ("b h w -> h w", {}),
        ("b h w -> b b h w", {}),
        ("b h w -> b h w", {"h": 4}),
        ("b (h1 h2) w -> b h1 h2 w", {"h1": 2}),
        ("b h -> b h", {}),
        ("b h w", {}),
        ("b (h w) c -> b h w c", {}),
        ("b h w -> b h w", {"z": 1}),
        ("b (h (w)) c -> b h w c", {}),
        ("b h w -> b h w 2", {}),
    ):
        with pytest.raises(ValueError, match="ops.rearrange"):
            NP.rearrange(x, pattern, **lengths)


# -- nn kind -------------------------------------------------------------------------------------
ACTIVATION_INPUT = np.array([[-7.0, -3.0, -1.2, -1.0, -0.3, 0.0, 0.2, 0.5, 1.0, 2.5, 3.0, 8.0]])


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


ACTIVATIONS = {
    "hard_sigmoid": lambda x: np.clip(x / 6 + 0.5, 0, 1),
    "hard_silu": lambda x: x * np.clip(x / 6 + 0.5, 0, 1),
    "hard_swish": lambda x: x * np.clip(x / 6 + 0.5, 0, 1),
    "hard_shrink": lambda x: np.where(np.abs(x) > 0.5, x, 0),
    "soft_shrink": lambda x: np.sign(x) * np.maximum(np.abs(x) - 0.5, 0),
    "tanh_shrink": lambda x: x - np.tanh(x),
    "squareplus": lambda x: (x + np.sqrt(x * x + 4)) / 2,
    "sparse_plus": lambda x: np.where(x <= -1, 0, np.where(x >= 1, x, (x + 1) ** 2 / 4)),
    "sparse_sigmoid": lambda x: np.where(x <= -1, 0, np.where(x >= 1, 1, (x + 1) / 2)),
    "celu": lambda x: np.maximum(x, 0) + np.minimum(0, np.exp(x) - 1),
    "selu": lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * (np.exp(x) - 1)),
    "softsign": lambda x: x / (1 + np.abs(x)),
    "swish": lambda x: x * _sigmoid(x),
    "relu6": lambda x: np.clip(x, 0, 6),
    "hard_tanh": lambda x: np.clip(x, -1, 1),
}


@pytest.mark.parametrize("op", sorted(ACTIVATIONS))
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_activations(op, dtype):
    x = ACTIVATION_INPUT.astype(dtype)
    atol = 2e-3 if dtype == "float16" else 1e-5
    check(op, (x,), ACTIVATIONS[op](x.astype("float64")).astype(dtype), atol=atol)


@pytest.mark.parametrize("op", sorted(ACTIVATIONS))
def test_activations_of_integers(op):
    x = np.array([-8, -2, -1, 0, 1, 3, 7], "int32")
    expected = ACTIVATIONS[op](x.astype("float64"))
    dtype = "int32" if op in ("relu6", "hard_tanh") else "float32"
    check(op, (x,), expected.astype(dtype))


def test_activation_arguments():
    x = ACTIVATION_INPUT.astype("float32")
    check("hard_shrink", (x, 1.5), np.where(np.abs(x) > 1.5, x, 0).astype("float32"))
    check("soft_shrink", (x, 2.0), (np.sign(x) * np.maximum(np.abs(x) - 2, 0)).astype("float32"))
    check("squareplus", (x, 1), ((x + np.sqrt(x * x + 1)) / 2).astype("float32"))
    celu = np.maximum(x, 0) + np.minimum(0, 2.0 * np.expm1(x / 2.0))
    check("celu", (x, 2.0), celu.astype("float32"))
    check("threshold", (x, 0.4, -9.0), np.where(x > 0.4, x, -9).astype("float32"))
    ints = np.array([1, 5, -3], "int32")
    check("threshold", (ints, 2, 0), np.array([0, 5, 0], "int32"))
    check("threshold", (ints, 2, 0.5), np.array([0.5, 5, 0.5], "float32"))


def test_glu():
    x = randn(3, 6)
    check("glu", (x,), x[:, :3] * _sigmoid(x[:, 3:]))
    x4 = randn(4, 3)
    check("glu", (x4, 0), x4[:2] * _sigmoid(x4[2:]))
    with pytest.raises(ValueError, match="ops.glu"):
        NP.glu(randn(2, 3))


def _sparsemax_reference(z):
    """Projection of each row of `z` onto the probability simplex, by sorting."""
    out = np.empty_like(z, dtype="float64")
    for i, row in enumerate(z.astype("float64")):
        s = np.sort(row)[::-1]
        k = np.arange(1, len(s) + 1)
        support = k[1 + k * s > np.cumsum(s)].max()
        tau = (s[:support].sum() - 1) / support
        out[i] = np.maximum(row - tau, 0)
    return out


def test_sparsemax():
    z = np.concatenate([randn(4, 5) * 3, [[0.1, 0.2, 0.15, 0.0, 0.05], [1, 2, 3, 4, 5]]])
    z = z.astype("float32")
    check("sparsemax", (z,), _sparsemax_reference(z).astype("float32"))
    check("sparsemax", (z.T, 0), _sparsemax_reference(z).T.astype("float32"))
    result = np.asarray(NP.sparsemax(z))
    np.testing.assert_allclose(result.sum(axis=-1), 1.0, rtol=1e-6)


def test_normalizations():
    x = randn(3, 4)
    x[1] = [1e-5, 0, 0, 0]
    x[2] = 0
    norm = np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-7)
    check("normalize", (x,), (x / norm).astype("float32"))
    norm1 = np.maximum(np.abs(x).sum(axis=0, keepdims=True), 0.5)
    check("normalize", (x, 0, 1, 0.5), (x / norm1).astype("float32"))
    rms = x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + 1e-7)
    check("rms_normalization", (x,), rms.astype("float32"))
    scale = uniform(4)
    check("rms_normalization", (x, scale), (rms * scale).astype("float32"))
    rms0 = x / np.sqrt(np.mean(x * x, axis=0, keepdims=True) + 0.1)
    check("rms_normalization", (x, None, 0, 0.1), rms0.astype("float32"))


def test_psnr():
    a, b = uniform(2, 5, 5), uniform(2, 5, 5)
    expected = 20 * np.log10(1.0) - 10 * np.log10(np.mean((a - b) ** 2))
    check("psnr", (a, b, 1.0), np.float32(expected))
    ints = (a * 255).astype("uint8"), (b * 255).astype("uint8")
    mse = np.mean((ints[0].astype("float64") - ints[1]) ** 2)
    check("psnr", (*ints, 255.0), np.float32(20 * np.log10(255.0) - 10 * np.log10(mse)), atol=1e-4)
    with pytest.raises(ValueError, match="ops.psnr"):
        NP.psnr(a, b[:1], 1.0)


def test_polar():
    r, theta = uniform(5), randn(5)
    check("polar", (r, theta), (r * np.exp(1j * theta)).astype("complex64"))
    check("polar", (r.astype("float64"), theta), (r * np.exp(1j * theta.astype("float64"))))


def _space_to_depth_reference(x, b):
    n, h, w, ch = x.shape
    out = np.empty((n, h // b, w // b, b * b * ch), x.dtype)
    for i in range(h // b):
        for j in range(w // b):
            out[:, i, j] = x[:, i * b : (i + 1) * b, j * b : (j + 1) * b, :].reshape(n, -1)
    return out


def test_space_and_depth():
    x = np.arange(2 * 4 * 6 * 3).reshape(2, 4, 6, 3).astype("int32")
    s2d = _space_to_depth_reference(x, 2)
    check("space_to_depth", (x, 2), s2d)
    check("depth_to_space", (s2d, 2), x)
    first = np.arange(1 * 3 * 4 * 4).reshape(1, 3, 4, 4).astype("float32")
    packed = np.asarray(NP.space_to_depth(first, 2, "channels_first"))
    assert packed.shape == (1, 12, 2, 2) and packed.dtype == np.float32
    np.testing.assert_array_equal(packed[0, :, 0, 0], [0, 1, 4, 5, 16, 17, 20, 21, 32, 33, 36, 37])
    check("depth_to_space", (packed, 2, "channels_first"), first)
    with pytest.raises(ValueError, match="ops.space_to_depth"):
        NP.space_to_depth(x, 4)
    with pytest.raises(ValueError, match="ops.depth_to_space"):
        NP.depth_to_space(x, 2)


def test_multi_hot():
    labels = np.array([[0, 2], [1, 1]], "int32")
    check("multi_hot", (labels, 4), np.array([[1, 0, 1, 0], [0, 1, 0, 0]], "float32"))
    check("multi_hot", (np.array([0, 3]),), np.array([1, 0, 0, 1, 0], "float32"), num_classes=5)
    check("multi_hot", (np.array([0, 3]),), np.array([1, 0, 0, 1, 0], "float32"), num_tokens=5)
    check("multi_hot", (labels, 3, -1, "int32"), np.array([[1, 0, 1], [0, 1, 0]], "int32"))
    check("multi_hot", (labels, 3, 0), np.array([[1, 0], [1, 1], [0, 1]], "float32"))
    cube = np.array([[[0, 1, 2], [3, 3, 0]], [[1, 1, 1], [2, 0, 0]]])
    expected = np.zeros((2, 3, 4), "float32")
    for i in range(2):
        for k in range(3):
            expected[i, k, cube[i, :, k]] = 1
    check("multi_hot", (cube, 4), expected)
    with pytest.raises(ValueError, match="ops.multi_hot"):
        NP.multi_hot(labels)
    with pytest.raises(TypeError, match="ops.multi_hot"):
        NP.multi_hot(labels, 3, classes=2)


def test_separable_conv():
    """A depthwise conv (each channel correlated with its own filters) then a 1x1 conv."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 7, 2)).astype("float32")
    depthwise = rng.standard_normal((3, 2, 2)).astype("float32")  # (width, in, multiplier)
    pointwise = rng.standard_normal((1, 4, 3)).astype("float32")
    windows = np.stack([x[:, i : i + 5] for i in range(3)], axis=2)  # (batch, 5, width, in)
    spread = np.einsum("btwc,wcm->btcm", windows, depthwise).reshape(2, 5, 4)
    check("separable_conv", (x, depthwise, pointwise), spread @ pointwise[0])
    with pytest.raises(ValueError, match="ops.separable_conv"):
        NP.separable_conv(x, depthwise[0], pointwise)


def test_conv_with_bias_adds_one_value_per_output_channel():
    x, kernel, bias = randn(2, 5, 3), randn(2, 3, 4), randn(4)
    convolved = np.asarray(NP.conv(x, kernel))
    check("conv_with_bias", (x, kernel, bias), convolved + bias)
    first = np.moveaxis(x, -1, 1)
    expected = np.asarray(NP.conv(first, kernel, data_format="channels_first")) + bias[:, None]
    check("conv_with_bias", (first, kernel, bias), expected, data_format="channels_first")


def _numpy_lstm(x, h, c, kernel, recurrent_kernel, bias):
    """A float64 LSTM written step by step (gates i, f, c, o): outputs, last h, last c."""

    def sigmoid(v):
        return 1 / (1 + np.exp(-v))

    outputs = []
    for t in range(x.shape[1]):
        z = x[:, t] @ kernel + h @ recurrent_kernel + bias
        i, f, g, o = np.split(z, 4, axis=-1)
        c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
        h = sigmoid(o) * np.tanh(c)
        outputs.append(h)
    return np.stack(outputs, 1), h, c


@pytest.mark.parametrize("with_bias", [True, False])
def test_lstm_sequence_is_an_lstm_on_every_backend(with_bias):
    """The shared implementation (input projection, then a scan), run with the active backend's
    ops, and the active backend's own hook unless it declines (None), against NumPy."""
    x, h, c = randn(2, 5, 3), randn(2, 4), randn(2, 4)
    kernel, recurrent_kernel, bias = randn(3, 16), randn(4, 16), randn(16)
    expected = _numpy_lstm(x, h, c, kernel, recurrent_kernel, bias if with_bias else 0.0)
    args = (x, h, c, kernel, recurrent_kernel, bias if with_bias else None)
    backend = active()
    shared = derived.OPS["lstm_sequence"](backend, *_convert(backend, args))
    own = backend.lstm_sequence(*_convert(backend, args))
    for result in [shared] + ([] if own is None else [own]):
        for got, want in zip(result, expected):
            tolerance = accelerator.floor(1e-5)
            np.testing.assert_allclose(
                backend.convert_to_numpy(got), want, rtol=tolerance, atol=tolerance
            )


def test_matmul_with_bias_is_a_dense_step():
    x, kernel, bias = randn(2, 3, 5), randn(5, 4), randn(4)
    check("matmul_with_bias", (x, kernel, bias), x @ kernel + bias)
    check("matmul_with_bias", (x[0], kernel, bias), x[0] @ kernel + bias)


# -- math kind -----------------------------------------------------------------------------------
def test_extract_sequences():
    x = np.arange(20).reshape(2, 10).astype("int64")
    expected = np.stack([x[:, i : i + 4] for i in range(0, 7, 3)], axis=1)
    check("extract_sequences", (x, 4, 3), expected)
    check("extract_sequences", (x[0].astype("float32"), 10, 1), x[0][None].astype("float32"))
    with pytest.raises(ValueError, match="ops.extract_sequences"):
        NP.extract_sequences(x, 11, 1)


def _periodic(name, length):
    phase = 2 * np.pi * np.arange(length) / length
    return {"hann": 0.5 - 0.5 * np.cos(phase), "hamming": 0.54 - 0.46 * np.cos(phase)}[name]


def _stft_reference(x, length, stride, fft_length, window, center):
    """STFT by explicit framing: frames of fft_length, window centered and zero-padded."""
    if center:
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(fft_length // 2,) * 2], mode="reflect")
    if window is None:
        taps = np.ones(fft_length)
    else:
        taps = _periodic(window, length) if isinstance(window, str) else window
        left = (fft_length - length) // 2
        taps = np.pad(taps, (left, fft_length - length - left))
    count = 1 + (x.shape[-1] - fft_length) // stride
    frames = np.stack([x[..., i * stride : i * stride + fft_length] for i in range(count)], -2)
    spectrum = np.fft.rfft(frames * taps, fft_length)
    return spectrum.real, spectrum.imag


STFT_SETTINGS = [
    (8, 4, 8, "hann", True),
    (6, 3, 8, "hann", True),
    (6, 3, 8, "hamming", False),
    (5, 2, 7, "hann", True),
    (8, 4, 8, None, True),
    (5, 5, 8, "hann", False),
]


@pytest.mark.parametrize("settings", STFT_SETTINGS)
def test_stft(settings):
    length, stride, fft_length, window, center = settings
    signal = randn(2, 33, dtype="float64")
    expected = _stft_reference(signal, length, stride, fft_length, window, center)
    check("stft", (signal, length, stride, fft_length, window, center), expected, atol=1e-10)
    signal32 = signal.astype("float32")
    expected32 = tuple(e.astype("float32") for e in expected)
    check("stft", (signal32, length, stride, fft_length, window, center), expected32, atol=1e-5)


def test_stft_window_tensor_and_errors():
    signal, taps = randn(40), uniform(6, low=0.5)
    expected = _stft_reference(signal.astype("float64"), 6, 2, 8, taps.astype("float64"), True)
    check("stft", (signal, 6, 2, 8, taps), tuple(e.astype("float32") for e in expected))
    with pytest.raises(ValueError, match="ops.stft"):
        NP.stft(signal, 8, 2, 6)
    with pytest.raises(ValueError, match="ops.stft"):
        NP.stft(signal, 6, 2, 8, window="kaiser")
    with pytest.raises(ValueError, match="ops.stft"):
        NP.stft(signal, 6, 2, 8, window=uniform(5))


@pytest.mark.parametrize("settings", STFT_SETTINGS[:-1])
def test_istft_inverts_stft(settings):
    length, stride, fft_length, window, center = settings
    signal = randn(3, 41, dtype="float64")
    spectrum = NP.stft(signal, length, stride, fft_length, window, center)
    rebuilt = np.asarray(NP.istft(spectrum, length, stride, fft_length, None, window, center))
    assert rebuilt.dtype == np.float64
    start = 0 if center else fft_length // 2
    n = rebuilt.shape[-1]
    count = spectrum[0].shape[-2]
    assert n == (count - 1) * stride + fft_length - (2 * (fft_length // 2) if center else 0)
    covered = slice(start + fft_length, n - fft_length)
    np.testing.assert_allclose(rebuilt[..., covered], signal[..., covered], atol=1e-9)


def test_istft_zeroes_samples_no_window_covers():
    signal = randn(41)
    spectrum = NP.stft(signal, 5, 5, 8, center=False)
    rebuilt = np.asarray(NP.istft(spectrum, 5, 5, 8, center=False))
    gaps = np.arange(1, 38, 5)
    np.testing.assert_array_equal(rebuilt[gaps], 0.0)
    kept = np.setdiff1d(np.arange(2, 36), gaps)
    np.testing.assert_allclose(rebuilt[kept], signal[kept], atol=1e-5)


def test_istft_length():
    signal = randn(41)
    spectrum = NP.stft(signal, 8, 4, 8)
    full = np.asarray(NP.istft(spectrum, 8, 4, 8))
    assert full.shape == (40,) and full.dtype == np.float32
    np.testing.assert_allclose(full, signal[:40], atol=1e-5)
    np.testing.assert_allclose(
        np.asarray(NP.istft(spectrum, 8, 4, 8, length=12)), signal[:12], atol=1e-5
    )
    assert np.asarray(NP.istft(spectrum, 8, 4, 8, length=50)).shape == (44,)
    with pytest.raises(ValueError, match="ops.istft"):
        NP.istft(spectrum[0], 8, 4, 8)


def test_in_top_k():
    scores = np.array(
        [[0.1, 0.5, 0.5, 0.2], [0.3, 0.3, 0.3, 0.1], [np.nan, 1.0, 2.0, 3.0], [4.0, 3.0, 2.0, 1.0]],
        "float32",
    )
    check("in_top_k", (np.array([2, 0, 0, 3]), scores, 1), np.array([True, True, False, False]))
    check("in_top_k", (np.array([3, 3, 1, 1]), scores, 2), np.array([False, False, False, True]))
    check("in_top_k", (np.array([0, 1, 0, 5]), scores, 4), np.array([True, True, False, False]))
    check("in_top_k", ([1, 0], np.array([[1, 3], [2, 2]], "int32"), 1), np.array([True, True]))


def test_logdet_and_complex_views():
    a = randn(3, 4, 4, dtype="float64")
    spd = a @ a.transpose(0, 2, 1) + 4 * np.eye(4)
    check("logdet", (spd,), np.linalg.slogdet(spd)[1])
    check("logdet", (a.astype("float32"),), np.linalg.slogdet(a)[1].astype("float32"), atol=1e-4)
    z = (randn(2, 3) + 1j * randn(2, 3)).astype("complex64")
    pairs = np.stack([z.real, z.imag], -1)
    check("view_as_real", (z,), pairs)
    check("view_as_real", (z.astype("complex128"),), pairs.astype("float64"))
    check("view_as_real", (z.real,), np.stack([z.real, 0 * z.real], -1))
    check("view_as_complex", (pairs,), z)
    check("view_as_complex", (pairs.astype("float64"),), z.astype("complex128"))
    with pytest.raises(ValueError, match="ops.view_as_complex"):
        NP.view_as_complex(randn(2, 3))


def test_cdist():
    x, y = randn(5, 3), randn(4, 3)
    check("cdist", (x, y), scipy.spatial.distance.cdist(x, y).astype("float32"))
    bx, by = randn(2, 5, 3), randn(2, 6, 3)
    expected = np.stack([scipy.spatial.distance.cdist(p, q) for p, q in zip(bx, by)])
    check("cdist", (bx, by), expected.astype("float32"))
    ints = np.array([[0, 0], [3, 4]], "int32")
    check("cdist", (ints, ints), np.array([[0, 5], [5, 0]], "float32"))
    with pytest.raises(ValueError, match="ops.cdist"):
        NP.cdist(x, randn(4, 2))


# -- linalg kind ---------------------------------------------------------------------------------
def test_cholesky_inverse():
    a = randn(2, 4, 4, dtype="float64")
    spd = a @ a.transpose(0, 2, 1) + 4 * np.eye(4)
    lower = np.linalg.cholesky(spd)
    check("cholesky_inverse", (lower,), np.linalg.inv(spd), atol=1e-10)
    upper = lower.transpose(0, 2, 1)
    check("cholesky_inverse", (upper, True), np.linalg.inv(spd), atol=1e-10)
    check(
        "cholesky_inverse",
        (lower[0].astype("float32"),),
        np.linalg.inv(spd[0]).astype("float32"),
        atol=1e-4,
    )
    with pytest.raises(ValueError, match="ops.cholesky_inverse"):
        NP.cholesky_inverse(randn(3, 4))


def test_matrix_rank():
    low = randn(3, 5, 2) @ randn(3, 2, 4)
    check("matrix_rank", (low,), np.linalg.matrix_rank(low).astype("int32"))
    check("matrix_rank", (np.eye(3) * [1, 1e-3, 0],), np.int32(2))
    check("matrix_rank", (np.eye(3) * [1, 1e-3, 0], 0.01), np.int32(1))
    check("matrix_rank", (np.zeros((2, 2), "float32"),), np.int32(0))
    check("matrix_rank", (np.ones((2, 3), "int32"),), np.int32(1))
    with pytest.raises(ValueError, match="ops.matrix_rank"):
        NP.matrix_rank(np.ones(3))


# -- core kind -----------------------------------------------------------------------------------
def test_unstack():
    x = np.arange(24).reshape(2, 3, 4)
    check("unstack", (x,), list(x))
    check("unstack", (x, 4, -1), [x[..., i] for i in range(4)])
    check("unstack", (x, None, 1), [x[:, i] for i in range(3)])
    with pytest.raises(ValueError, match="ops.unstack"):
        NP.unstack(x, num=3)


# -- image kind ----------------------------------------------------------------------------------
def _channels_first(x):
    return np.moveaxis(x, -1, -3)


def test_grayscale():
    images = uniform(2, 3, 4, 3)
    gray = (images.astype("float64") @ [0.2989, 0.5870, 0.1140])[..., None]
    check("rgb_to_grayscale", (images,), gray.astype("float32"))
    check("rgb_to_grayscale", (images[0],), gray[0].astype("float32"))
    check(
        "rgb_to_grayscale",
        (_channels_first(images), "channels_first"),
        _channels_first(gray).astype("float32"),
    )
    pixels = (images * 255).astype("uint8")
    expected = np.round(pixels.astype("float64") @ [0.2989, 0.5870, 0.1140])[..., None]
    check("rgb_to_grayscale", (pixels,), expected.astype("uint8"))
    with pytest.raises(ValueError, match="ops.rgb_to_grayscale"):
        NP.rgb_to_grayscale(uniform(2, 3, 4, 2))


def test_hsv_round_trip():
    rgb = uniform(2, 4, 5, 3)
    rgb[0, 0, :3] = [[0.5, 0.5, 0.5], [0, 0, 0], [1, 1, 1]]
    rgb[0, 1, :3] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    hsv = np.apply_along_axis(lambda p: colorsys.rgb_to_hsv(*p), -1, rgb.astype("float64"))
    check("rgb_to_hsv", (rgb,), hsv.astype("float32"))
    check(
        "rgb_to_hsv",
        (_channels_first(rgb), "channels_first"),
        _channels_first(hsv).astype("float32"),
    )
    back = np.apply_along_axis(lambda p: colorsys.hsv_to_rgb(*p), -1, hsv)
    check("hsv_to_rgb", (hsv.astype("float32"),), back.astype("float32"))
    check("hsv_to_rgb", (hsv[0],), back[0])
    with pytest.raises(ValueError, match="ops.rgb_to_hsv"):
        NP.rgb_to_hsv((rgb * 255).astype("uint8"))


def test_crop_images():
    images = uniform(2, 7, 8, 3)
    check("crop_images", (images, 1, 2, None, None, 3, 4), images[:, 1:4, 2:6])
    check("crop_images", (images, 1, 2, 2, 1), images[:, 1:5, 2:7])
    check("crop_images", (images, None, None, 2, 1, 3, 4), images[:, 2:5, 3:7])
    check("crop_images", (images[0], 0, 0, None, None, 7, 8), images[0])
    first = _channels_first(images)
    check("crop_images", (first, 1, 2, None, None, 3, 4, "channels_first"), first[:, :, 1:4, 2:6])
    for arguments in (
        (1, 2),
        (1, 2, 1, 1, 3, 3),
        (5, 2, None, None, 3, 3),
        (-1, 0, None, None, 3, 3),
    ):
        with pytest.raises(ValueError, match="ops.crop_images"):
            NP.crop_images(images, *arguments)


def test_pad_images():
    images = (uniform(2, 3, 4, 3) * 255).astype("uint8")
    check(
        "pad_images",
        (images, 1, 2, None, None, 6, 9),
        np.pad(images, [(0, 0), (1, 2), (2, 3), (0, 0)]),
    )
    check("pad_images", (images, 1, 2, 0, 1), np.pad(images, [(0, 0), (1, 0), (2, 1), (0, 0)]))
    check(
        "pad_images",
        (images[0], None, None, 2, 0, 5, 5),
        np.pad(images[0], [(0, 2), (1, 0), (0, 0)]),
    )
    first = _channels_first(images)
    expected = np.pad(first, [(0, 0), (0, 0), (1, 2), (2, 3)])
    check("pad_images", (first, 1, 2, None, None, 6, 9, "channels_first"), expected)
    for arguments in ((1, 2), (1, 2, None, None, 3, 9), (-1, 0, 1, 0)):
        with pytest.raises(ValueError, match="ops.pad_images"):
            NP.pad_images(images, *arguments)


def _correlate(images, kernel, pads, mode="constant"):
    """NHWC `images` cross-correlated per channel with 2-D `kernel` after padding `pads`."""
    padded = np.pad(images.astype("float64"), [(0, 0), *pads, (0, 0)], mode=mode)
    rows = padded.shape[1] - kernel.shape[0] + 1
    cols = padded.shape[2] - kernel.shape[1] + 1
    out = np.zeros((images.shape[0], rows, cols, images.shape[3]))
    for i in range(kernel.shape[0]):
        for j in range(kernel.shape[1]):
            out += kernel[i, j] * padded[:, i : i + rows, j : j + cols]
    return out


def test_sobel_edges():
    images = uniform(2, 5, 6, 3)
    dy = np.array([[-1, -2, -1], [0, 0, 0], [1, 2, 1]], "float64")
    edges = np.stack([_correlate(images, k, [(1, 1), (1, 1)], "reflect") for k in (dy, dy.T)], -1)
    check("sobel_edges", (images,), edges.astype("float32"))
    first = np.moveaxis(edges, 3, 1)
    check("sobel_edges", (_channels_first(images), "channels_first"), first.astype("float32"))
    check(
        "sobel_edges",
        ((images * 9).astype("int32"),),
        np.stack(
            [
                _correlate((images * 9).astype("int32"), k, [(1, 1), (1, 1)], "reflect")
                for k in (dy, dy.T)
            ],
            -1,
        ).astype("float32"),
        atol=1e-4,
    )


def _gaussian(size, sigma):
    taps = np.exp(-((np.arange(size) - (size - 1) / 2) ** 2) / (2 * sigma**2))
    return taps / taps.sum()


@pytest.mark.parametrize(
    "size, sigma", [((3, 3), (1.0, 1.0)), ((5, 3), (1.5, 0.7)), ((4, 2), (1.0, 2.0))]
)
def test_gaussian_blur(size, sigma):
    images = uniform(2, 6, 7, 3)
    kernel = np.outer(_gaussian(size[0], sigma[0]), _gaussian(size[1], sigma[1]))
    pads = [((k - 1) // 2, k - 1 - (k - 1) // 2) for k in size]
    blurred = _correlate(images, kernel, pads)
    check("gaussian_blur", (images, size, sigma), blurred.astype("float32"))
    check(
        "gaussian_blur",
        (_channels_first(images), size, sigma, "channels_first"),
        _channels_first(blurred).astype("float32"),
    )
    pixels = (images * 255).astype("uint8")
    expected = np.round(_correlate(pixels, kernel, pads)).astype("uint8")
    check("gaussian_blur", (pixels[0], size, sigma), expected[0])


def _ssim_reference(x, y, max_val=1.0, size=11, sigma=1.5, k1=0.01, k2=0.03):
    kernel = np.outer(_gaussian(size, sigma), _gaussian(size, sigma))
    x, y = x.astype("float64"), y.astype("float64")
    mx, my = _correlate(x, kernel, [(0, 0)] * 2), _correlate(y, kernel, [(0, 0)] * 2)
    sxx = _correlate(x * x, kernel, [(0, 0)] * 2) - mx**2
    syy = _correlate(y * y, kernel, [(0, 0)] * 2) - my**2
    sxy = _correlate(x * y, kernel, [(0, 0)] * 2) - mx * my
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    scores = ((2 * mx * my + c1) * (2 * sxy + c2)) / ((mx**2 + my**2 + c1) * (sxx + syy + c2))
    return scores.mean(axis=(1, 2, 3))


def test_ssim():
    a = uniform(2, 16, 14, 3)
    b = np.clip(a + 0.1 * randn(2, 16, 14, 3), 0, 1).astype("float32")
    check("ssim", (a, b), _ssim_reference(a, b).astype("float32"))
    check("ssim", (a, b, 2.0, 5, 1.0), _ssim_reference(a, b, 2.0, 5, 1.0).astype("float32"))
    check("ssim", (a[0], b[0]), np.float32(_ssim_reference(a[:1], b[:1])[0]))
    check("ssim", (a, a), np.ones(2, "float32"))
    check(
        "ssim",
        (_channels_first(a), _channels_first(b)),
        _ssim_reference(a, b).astype("float32"),
        data_format="channels_first",
    )
    pixels = (a * 255).astype("uint8"), (b * 255).astype("uint8")
    check("ssim", (*pixels, 255.0), _ssim_reference(*pixels, 255.0).astype("float32"), atol=1e-4)
    with pytest.raises(ValueError, match="ops.ssim"):
        NP.ssim(a, b[:1])


def _patches_reference(x, size, strides, dilation, padding):
    """Patches of channels-last `x` (batch + len(size) spatial axes), window then channel order."""
    rank = len(size)
    spans = [(k - 1) * d + 1 for k, d in zip(size, dilation)]
    spatial = x.shape[1 : 1 + rank]
    if padding == "same":
        counts = [-(-n // s) for n, s in zip(spatial, strides)]
        totals = [
            max((o - 1) * s + e - n, 0) for o, s, e, n in zip(counts, strides, spans, spatial)
        ]
        x = np.pad(x, [(0, 0), *[(t // 2, t - t // 2) for t in totals], (0, 0)])
    else:
        counts = [(n - e) // s + 1 for n, e, s in zip(spatial, spans, strides)]
    out = np.zeros((x.shape[0], *counts, math.prod(size) * x.shape[-1]), x.dtype)
    for position in np.ndindex(*counts):
        window = tuple(
            slice(p * s, p * s + e, d) for p, s, e, d in zip(position, strides, spans, dilation)
        )
        out[(slice(None), *position)] = x[(slice(None), *window)].reshape(x.shape[0], -1)
    return out


def _pair(value):
    return (value, value) if isinstance(value, int) else value


PATCH_SETTINGS = [
    ((2, 3), None, 1, "valid"),
    ((2, 3), (1, 2), 1, "valid"),
    ((3, 3), (2, 2), 1, "same"),
    ((2, 2), (1, 1), (2, 1), "valid"),
    ((2, 4), (3, 1), 1, "same"),
    ((3, 2), 1, 2, "same"),
]


@pytest.mark.parametrize("size, strides, dilation, padding", PATCH_SETTINGS)
def test_extract_patches(size, strides, dilation, padding):
    images = np.arange(2 * 7 * 9 * 3).reshape(2, 7, 9, 3).astype("int32")
    expected = _patches_reference(images, size, _pair(strides or size), _pair(dilation), padding)
    check("extract_patches", (images, size, strides, dilation, padding), expected)
    check("extract_patches", (images[0], size, strides, dilation, padding), expected[0])
    first = _channels_first(images)
    check(
        "extract_patches",
        (first, size, strides, dilation, padding, "channels_first"),
        np.moveaxis(expected, -1, 1),
    )


@pytest.mark.parametrize(
    "size, strides, padding",
    [((2, 3, 2), (1, 2, 3), "valid"), (2, None, "same"), ((3, 1, 2), 2, "same")],
)
def test_extract_patches_3d(size, strides, padding):
    volumes = uniform(2, 5, 6, 7, 2)
    sizes = (size,) * 3 if isinstance(size, int) else size
    steps = sizes if strides is None else ((strides,) * 3 if isinstance(strides, int) else strides)
    expected = _patches_reference(volumes, sizes, steps, (1, 1, 1), padding)
    check("extract_patches_3d", (volumes, size, strides, 1, padding), expected)
    check("extract_patches_3d", (volumes[1], size, strides, 1, padding), expected[1])
    with pytest.raises(ValueError, match="ops.extract_patches_3d"):
        NP.extract_patches_3d(volumes[0, 0], 2)


SCIPY_MODES = {
    "constant": "grid-constant",
    "nearest": "nearest",
    "wrap": "grid-wrap",
    "mirror": "mirror",
    "reflect": "reflect",
}


def _fold_reference(index, size, mode):
    if mode == "wrap":
        return index % size
    if mode == "mirror":
        period = max(2 * size - 2, 1)
        phase = index % period
        return np.where(phase >= size, period - phase, phase)
    if mode == "reflect":
        phase = index % (2 * size)
        return np.where(phase >= size, 2 * size - 1 - phase, phase)
    return np.clip(index, 0, size - 1)


def _warp_reference(images, ys, xs, interpolation, mode, fill):
    """Each image of NHWC `images` sampled at (ys, xs) (N, H, W), with SciPy for bilinear."""
    out = np.empty(images.shape, "float64")
    height, width = images.shape[1:3]
    for n in range(images.shape[0]):
        for ch in range(images.shape[3]):
            plane = images[n, :, :, ch].astype("float64")
            if interpolation == "bilinear":
                coordinates = np.stack([ys[n], xs[n]])
                out[n, :, :, ch] = scipy.ndimage.map_coordinates(
                    plane, coordinates, order=1, mode=SCIPY_MODES[mode], cval=fill
                )
            else:
                rows, cols = np.floor(ys[n] + 0.5).astype(int), np.floor(xs[n] + 0.5).astype(int)
                inside = (rows >= 0) & (rows < height) & (cols >= 0) & (cols < width)
                value = plane[
                    _fold_reference(rows, height, mode), _fold_reference(cols, width, mode)
                ]
                out[n, :, :, ch] = np.where(inside | (mode != "constant"), value, fill)
    return out


def _projected(transforms, height, width):
    a0, a1, a2, b0, b1, b2, c0, c1 = (t[:, None, None] for t in transforms.astype("float64").T)
    xg, yg = np.meshgrid(np.arange(width), np.arange(height))
    k = c0 * xg + c1 * yg + 1
    return (b0 * xg + b1 * yg + b2) / k, (a0 * xg + a1 * yg + a2) / k


AFFINES = np.array(
    [[0.9, 0.2, 1.3, -0.3, 1.1, 0.7, 0.01, -0.02], [1.2, -0.1, -2.03, 0.1, 0.8, 3.13, 0.0, 0.0]],
    "float32",
)


@pytest.mark.parametrize("mode", sorted(SCIPY_MODES))
@pytest.mark.parametrize("interpolation", ["bilinear", "nearest"])
def test_affine_transform(mode, interpolation):
    images = uniform(2, 5, 6, 3)
    ys, xs = _projected(AFFINES, 5, 6)
    expected = _warp_reference(images, ys, xs, interpolation, mode, 0.5)
    check(
        "affine_transform", (images, AFFINES, interpolation, mode, 0.5), expected.astype("float32")
    )
    first = _channels_first(images)
    expected_first = _channels_first(expected).astype("float32")
    check(
        "affine_transform",
        (first, AFFINES, interpolation, mode, 0.5, "channels_first"),
        expected_first,
    )


def test_affine_transform_shapes_and_dtypes():
    images = uniform(2, 5, 6, 3)
    shift = np.array([1, 0, 1, 0, 1, 0, 0, 0], "float32")
    shifted = np.asarray(NP.affine_transform(images[0], shift))
    np.testing.assert_allclose(shifted[:, :-1], images[0][:, 1:])
    np.testing.assert_array_equal(shifted[:, -1], 0.0)
    both = np.asarray(NP.affine_transform(images, shift))
    np.testing.assert_allclose(both[:, :, :-1], images[:, :, 1:])
    pixels = (images * 255).astype("uint8")
    half = np.array([1, 0, 0.5, 0, 1, 0, 0, 0], "float32")
    expected = np.round((pixels[:, :, :-1].astype("float64") + pixels[:, :, 1:]) / 2)
    result = check(
        "affine_transform", (pixels, half), np.asarray(NP.affine_transform(pixels, half))
    )
    assert result.dtype == np.uint8
    np.testing.assert_array_equal(result[:, :, :-1], expected.astype("uint8"))
    for bad in (
        {"transform": np.zeros(6, "float32")},
        {"transform": np.zeros((3, 8), "float32")},
        {"transform": shift, "interpolation": "bicubic"},
        {"transform": shift, "fill_mode": "edge"},
    ):
        with pytest.raises(ValueError, match="ops.affine_transform"):
            NP.affine_transform(images, **bad)


def _perspective_coefficients(start, end):
    rows, targets = [], []
    for (xs, ys), (xe, ye) in zip(start, end):
        rows.append([xe, ye, 1, 0, 0, 0, -xe * xs, -ye * xs])
        rows.append([0, 0, 0, xe, ye, 1, -xe * ys, -ye * ys])
        targets += [xs, ys]
    return np.linalg.solve(np.array(rows, "float64"), np.array(targets, "float64"))


@pytest.mark.parametrize("interpolation", ["bilinear", "nearest"])
def test_perspective_transform(interpolation):
    images = uniform(2, 9, 11, 3)
    start = np.array([[[0, 0], [0, 9], [11, 0], [11, 9]]] * 2, "float32")
    end = np.array(
        [[[1, 2], [2, 9], [9, -1], [12, 8]], [[0.5, 1], [1, 8], [10, 0.3], [11, 9]]], "float32"
    )
    transforms = np.stack([_perspective_coefficients(s, e) for s, e in zip(start, end)])
    ys, xs = _projected(transforms, 9, 11)
    expected = _warp_reference(images, ys, xs, interpolation, "constant", 0.25)
    check(
        "perspective_transform",
        (images, start, end, interpolation, 0.25),
        expected.astype("float32"),
        atol=1e-4,
    )
    single = _warp_reference(
        images, ys[:1].repeat(2, 0), xs[:1].repeat(2, 0), interpolation, "constant", 0.0
    )
    check(
        "perspective_transform",
        (images, start[0], end[0], interpolation),
        single.astype("float32"),
        atol=1e-4,
    )
    check(
        "perspective_transform",
        (images[1], start[1], end[1], interpolation, 0.25),
        expected[1].astype("float32"),
        atol=1e-4,
    )
    same = np.asarray(NP.perspective_transform(images, start, start, interpolation))
    np.testing.assert_allclose(same, images, atol=1e-5)
    with pytest.raises(ValueError, match="ops.perspective_transform"):
        NP.perspective_transform(images, start[:, :3], end[:, :3])


def test_elastic_transform():
    images = uniform(2, 12, 10, 3)
    still = NP.elastic_transform(images, alpha=0.0, seed=3)
    np.testing.assert_allclose(np.asarray(still), images, atol=1e-6)
    first = np.asarray(NP.elastic_transform(images, seed=5))
    again = np.asarray(NP.elastic_transform(images, seed=5))
    other = np.asarray(NP.elastic_transform(images, seed=6))
    assert first.shape == images.shape and first.dtype == np.float32
    np.testing.assert_array_equal(first, again)
    assert not np.allclose(first, other) and not np.allclose(first, images)
    assert first.min() >= images.min() - 1e-6 and first.max() <= images.max() + 1e-6
    pixels = (images[0] * 255).astype("uint8")
    warped = np.asarray(NP.elastic_transform(pixels, 5.0, 2.0, "nearest", "constant", 0, seed=1))
    assert warped.shape == pixels.shape and warped.dtype == np.uint8
    assert set(np.unique(warped)) <= set(np.unique(pixels)) | {0}
    cf = np.asarray(
        NP.elastic_transform(_channels_first(images), 0.0, seed=1, data_format="channels_first")
    )
    np.testing.assert_allclose(cf, _channels_first(images), atol=1e-6)


# -- the same ops on the other backends, eagerly and traced --------------------------------------
def _case(op, *args, atol=1e-5, **kwargs):
    return pytest.param(op, args, kwargs, atol, id=op)


_IMAGES = uniform(2, 8, 9, 3)
_SIGNAL = randn(2, 40)
_SPD = np.eye(3, dtype="float32") * 2 + 0.5
_NANS = NAN_DATA

CASES = [
    _case("absolute", np.array([-2, 3], "int32")),
    _case("fabs", np.array([-2, 3], "int32")),
    _case("conj", np.array([1 + 2j, -1j], "complex64")),
    _case("conjugate", randn(3)),
    _case("true_divide", np.array([3, 4], "int32"), 2),
    _case("bitwise_not", np.array([3, -4], "int16")),
    _case("left_shift", np.array([3, 4], "int32"), np.array([1, 2], "int32")),
    _case("right_shift", np.array([32, 4], "int32"), 2),
    _case("array", randn(3), dtype="float64"),
    _case("empty", (2, 3), dtype="int32", atol=math.inf),
    _case("empty_like", randn(2, 2), atol=math.inf),
    _case("identity", 3, dtype="int8"),
    _case("ravel", randn(2, 3)),
    _case("size", randn(2, 3)),
    _case("ndim", randn(2, 3)),
    _case("hstack", [randn(2, 3), randn(2, 1)]),
    _case("vstack", [randn(3), randn(3)]),
    _case("dstack", [randn(2, 3), randn(2, 3)]),
    _case("hsplit", randn(2, 4), 2),
    _case("vsplit", randn(4, 2), [1]),
    _case("dsplit", randn(2, 2, 4), 2),
    _case("fliplr", randn(2, 3)),
    _case("flipud", randn(2, 3)),
    _case("rot90", randn(2, 3, 4), 3, (2, 0)),
    _case("swapaxes", randn(2, 3, 4), 0, 2),
    _case("moveaxis", randn(2, 3, 4), [0, 1], [2, 0]),
    _case("average", randn(3, 4), 1, uniform(4)),
    _case("ptp", randn(3, 4), 0),
    _case("trapezoid", randn(3, 4), np.sort(uniform(4))),
    _case("vander", np.array([1, 2, 3], "int32"), 4),
    _case("corrcoef", randn(3, 5)),
    _case("heaviside", np.array([-1.0, 0.0, 2.0], "float32"), 0.5),
    _case("sinc", np.array([0.0, 0.5, 1.5], "float32")),
    _case("isneginf", np.array([-np.inf, np.inf, 0.0], "float32")),
    _case("isposinf", np.array([-np.inf, np.inf, 0.0], "float32")),
    _case("isreal", np.array([1 + 0j, 1j], "complex64")),
    _case("divide_no_nan", np.array([1.0, 2.0], "float32"), np.array([0.0, 4.0], "float32")),
    _case(
        "logaddexp2",
        np.array([-np.inf, 1.0, 30.0], "float32"),
        np.array([-np.inf, 2.0, -5.0], "float32"),
    ),
    _case("deg2rad", np.array([90, 180], "int32")),
    _case("rad2deg", randn(3)),
    _case("allclose", randn(3), randn(3)),
    _case("inner", randn(2, 3), randn(4, 3)),
    _case("vdot", randn(2, 3), randn(2, 3)),
    _case("outer", randn(3), randn(2)),
    _case("kron", randn(2, 2), randn(3, 1)),
    _case("cross", randn(4, 3), randn(4, 2)),
    _case(
        "select",
        [np.array([True, False, False]), np.array([False, True, False])],
        [randn(3), randn(3)],
        -1.0,
    ),
    _case("tri", 3, 4, 1),
    _case("geomspace", 1.0, 1000.0, 4),
    _case("logspace", 0.0, 2.0, 5, base=2.0),
    _case("bartlett", 5),
    _case("blackman", 6),
    _case("hamming", 5),
    _case("hanning", 4),
    _case("kaiser", 6, 3.0),
    _case("nanmean", _NANS, 1),
    _case("nansum", _NANS, 0),
    _case("nanprod", _NANS, 1),
    _case("nanmax", _NANS, 1),
    _case("nanmin", _NANS),
    _case("nanargmax", _NANS, 1),
    _case("nanargmin", _NANS, 1),
    _case("nancumsum", _NANS, 1),
    _case("nancumprod", _NANS),
    _case("nanvar", _NANS, 1),
    _case("nanstd", _NANS, 1, True),
    _case("nanmedian", _NANS, 1),
    _case("nanpercentile", _NANS, [25.0, 50.0], 1),
    _case("nanquantile", _NANS, 0.3, 1, "nearest"),
    _case("percentile", randn(3, 5), 30.0, 1),
    _case("rearrange", randn(2, 6, 3), "b (h w) c -> b c h w", h=2),
    _case("psnr", uniform(2, 4, 4), uniform(2, 4, 4), 1.0),
    _case("glu", randn(2, 4)),
    *[_case(op, ACTIVATION_INPUT.astype("float32")) for op in sorted(ACTIVATIONS)],
    _case("sparsemax", randn(3, 5)),
    _case("threshold", randn(2, 3), 0.1, -1.0),
    _case("normalize", randn(2, 3)),
    _case("rms_normalization", randn(2, 3), uniform(3)),
    _case("polar", uniform(3), randn(3)),
    _case("space_to_depth", randn(2, 4, 6, 3), 2),
    _case("depth_to_space", randn(2, 8, 2, 3), 2, "channels_first"),
    _case("multi_hot", np.array([[0, 2], [1, 1]], "int32"), 4),
    _case("extract_sequences", _SIGNAL, 8, 5),
    _case("stft", _SIGNAL, 6, 3, 8),
    _case("istft", (randn(2, 11, 5), randn(2, 11, 5)), 8, 4, 8, atol=1e-4),
    _case("in_top_k", np.array([1, 0], "int32"), randn(2, 4), 2),
    _case("logdet", _SPD),
    _case("view_as_real", np.array([1 + 2j, -1j], "complex64")),
    _case("view_as_complex", randn(3, 2)),
    _case("cdist", randn(4, 3), randn(5, 3)),
    _case("cholesky_inverse", np.linalg.cholesky(_SPD)),
    _case("matrix_rank", randn(3, 2) @ randn(2, 4)),
    _case("rgb_to_grayscale", _IMAGES),
    _case("rgb_to_hsv", _IMAGES),
    _case("hsv_to_rgb", _IMAGES),
    _case("crop_images", _IMAGES, 1, 2, None, None, 4, 5),
    _case("pad_images", _IMAGES, 1, 2, 0, 1),
    _case("sobel_edges", _IMAGES),
    _case("gaussian_blur", _IMAGES, (5, 3), (1.5, 0.7)),
    _case("ssim", _IMAGES, _IMAGES[::-1], 1.0, 5),
    _case("extract_patches", _IMAGES, (3, 2), (2, 2), 1, "same"),
    _case("extract_patches_3d", uniform(1, 4, 5, 6, 2), 2, (1, 2, 3)),
    _case("elastic_transform", _IMAGES, 0.0, seed=1),
    _case(
        "perspective_transform",
        _IMAGES,
        np.array([[0, 0], [0, 8], [9, 0], [9, 8]], "float32"),
        np.array([[1, 0], [0, 7], [8, 1], [9, 9]], "float32"),
        atol=1e-4,
    ),
    _case("affine_transform", _IMAGES, AFFINES, "bilinear", "reflect"),
    _case("unstack", randn(2, 3), None, 1),
    _case("separable_conv", randn(2, 6, 5, 3), randn(3, 2, 3, 2), randn(1, 1, 6, 4), 1, "same"),
    _case("conv_with_bias", randn(2, 6, 5, 3), randn(3, 2, 3, 4), randn(4), 1, "same"),
    _case("matmul_with_bias", randn(2, 6, 5), randn(5, 4), randn(4)),
    _case(
        "conv_with_bias",
        randn(2, 3, 7, 5),
        randn(3, 2, 3, 4),
        randn(4),
        2,
        "valid",
        "channels_first",
    ),
    _case("batch_norm_training", randn(4, 5, 6, 3), -1, randn(3), randn(3), 1e-3, atol=1e-4),
    _case("batch_norm_training", randn(4, 3, 5), 1, randn(3), randn(3), 1e-3, atol=1e-4),
]


def _backend_under_test():
    """The active backend (TRIPOD_BACKEND); these checks compare it with the numpy backend."""
    backend = active()
    if backend.name == "numpy":
        pytest.skip("the numpy backend is the reference itself")
    return backend


def _to_numpy(backend, value):
    if isinstance(value, (list, tuple)):
        return type(value)(_to_numpy(backend, v) for v in value)
    if isinstance(value, (int, float, bool)):
        return value
    return np.asarray(backend.convert_to_numpy(value))


def _convert(backend, value):
    if isinstance(value, np.ndarray):
        return backend.convert_to_tensor(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_convert(backend, v) for v in value)
    return value


def test_every_derived_op_has_a_cross_backend_case():
    tested_below = {"update_average", "lstm_sequence"}
    assert {p.values[0] for p in CASES} == set(DERIVED) - tested_below


@pytest.mark.parametrize("weight", [0.1, "tensor"])
def test_update_average_matches_the_formula_exactly(weight):
    """`variable += (value - variable) * weight`, in place, bit for bit what the ops compute."""
    backend = active()
    start, value = randn(5, 3), randn(5, 3)
    value_before = value.copy()
    if weight == "tensor":
        weight = backend.convert_to_tensor(np.float32(0.25))
    expected = backend.convert_to_numpy(
        backend.add(start, backend.multiply(backend.subtract(value, start), weight))
    )
    variable = backend.Variable(start)
    returned = backend.update_average(variable, backend.convert_to_tensor(value), weight)
    assert np.array_equal(backend.convert_to_numpy(variable.value), expected)
    assert np.array_equal(backend.convert_to_numpy(returned), expected)
    assert np.array_equal(value, value_before)  # only the variable changed


@pytest.mark.parametrize("op, args, kwargs, atol", CASES)
def test_on_active_backend(op, args, kwargs, atol):
    backend = _backend_under_test()
    name = backend.name
    expected = _to_numpy(NP, getattr(NP, op)(*args, **kwargs))
    call = (getattr(backend, op), _convert(backend, args), _convert(backend, kwargs))
    actual = _to_numpy(backend, accelerator.call(*call))  # one compile on an accelerator
    if atol == math.inf:
        assert (
            np.shape(actual) == np.shape(expected)
            and np.asarray(actual).dtype == np.asarray(expected).dtype
        )
    else:
        assert_same(actual, expected, atol=atol, rtol=atol, path=f"{name} ops.{op}")


UNTRACEABLE = {"size", "ndim"}  # they return Python ints


def _is_data(value):
    """Whether an argument is tensor data (an array, or a sequence of arrays), to be traced."""
    if isinstance(value, (list, tuple)):
        return bool(value) and all(isinstance(v, np.ndarray) for v in value)
    return isinstance(value, np.ndarray)


@pytest.mark.parametrize(
    "op, args, kwargs, atol", [c for c in CASES if c.values[0] not in UNTRACEABLE]
)
def test_traced_on_active_backend(op, args, kwargs, atol):
    """The op inside the backend's compiled step (jax.jit, tf.function) matches numpy's result."""
    backend = _backend_under_test()
    name = backend.name
    positions = [i for i, a in enumerate(args) if _is_data(a)]

    def step(batch):
        filled = list(args)
        for i, value in zip(positions, batch):
            filled[i] = value
        return getattr(backend, op)(*filled, **kwargs)

    compiled = backend.compile_step(step, [], "predict", None, False)
    actual = _to_numpy(backend, compiled(tuple(_convert(backend, args[i]) for i in positions)))
    expected = _to_numpy(NP, getattr(NP, op)(*args, **kwargs))
    if atol == math.inf:
        assert np.shape(actual) == np.shape(expected)
    else:
        assert_same(actual, expected, atol=atol, rtol=atol, path=f"traced {name} ops.{op}")
