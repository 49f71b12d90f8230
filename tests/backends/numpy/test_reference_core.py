"""The numpy reference backend: result dtypes, control flow, losses, math, linalg and random ops.

Only `tripod.backends.load("numpy")` is used, so these tests run whatever backend is active.
"""

import math

import ml_dtypes
import numpy as np
import pytest
import scipy.linalg
import scipy.special

from tripod.backends import load
from tripod.backends.common.seed import SeedGenerator

np_ops = load("numpy")
rng = np.random.default_rng(11)


def ones(dtype, shape=(2, 3)):
    return np.ones(shape, ml_dtypes.bfloat16 if dtype == "bfloat16" else dtype)


def dtype_name(x):
    return np_ops.dtype(x)


# -- result dtypes -------------------------------------------------------------------------------
DTYPE_CASES = [
    # (op, args, expected dtype)
    ("add", (ones("int8"), ones("uint8")), "int16"),
    ("add", (ones("int8"), 3), "int8"),  # Python scalars are weak
    ("add", (ones("int8"), 2.5), "float32"),
    ("add", (ones("float16"), 2.0), "float16"),
    ("add", (ones("float32"), ones("float64")), "float64"),  # 64-bit types are kept
    ("add", (ones("int32"), ones("float16")), "float16"),
    ("add", (ones("bfloat16"), ones("float16")), "float32"),
    ("add", (ones("int64"), ones("float32")), "float32"),
    ("add", (ones("uint32"), ones("int32")), "int64"),
    ("multiply", (ones("bool"), ones("bool")), "bool"),
    ("divide", (ones("int32"), ones("int32")), "float32"),
    ("divide", (ones("int64"), 2), "float32"),
    ("power", (ones("int8"), 2), "int8"),
    ("arctan2", (ones("int16"), ones("int16")), "float32"),
    ("sqrt", (ones("int64"),), "float32"),
    ("sqrt", (ones("float64"),), "float64"),
    ("exp", (ones("bfloat16"),), "bfloat16"),
    ("ceil", (ones("int32"),), "float32"),
    ("trunc", (ones("int32"),), "int32"),
    ("square", (ones("bool"),), "int32"),
    ("sum", (ones("bool"),), "int32"),
    ("sum", (ones("int8"),), "int32"),
    ("sum", (ones("uint16"),), "uint32"),
    ("sum", (ones("int64"),), "int64"),
    ("prod", (ones("uint8"),), "uint32"),
    ("cumsum", (ones("bool"),), "int32"),
    ("cumsum", (ones("int8"),), "int8"),
    ("mean", (ones("int32"),), "float32"),
    ("var", (ones("float16"),), "float16"),
    ("median", (ones("uint8"),), "float32"),
    ("max", (ones("bool"),), "bool"),
    ("argmax", (ones("float64"),), "int32"),
    ("argsort", (ones("int8"),), "int32"),
    ("count_nonzero", (ones("float32"),), "int32"),
    ("matmul", (ones("int8"), ones("int8", (3, 2))), "int32"),
    ("matmul", (ones("uint8"), ones("int8", (3, 2))), "int16"),
    ("dot", (ones("int8"), ones("int8", (3, 2))), "int8"),
    ("equal", (ones("int8"), 2.5), "bool"),
    ("where", (ones("bool"), 1, 2), "int32"),
    ("where", (ones("bool"), ones("int8"), 2.0), "float32"),
    ("clip", (ones("bool"), 0, 1), "int32"),
    ("clip", (ones("uint8"), 0.5, 1.5), "uint8"),
    ("arange", (5,), "int32"),
    ("arange", (0, 3, 0.5), "float32"),
    ("linspace", (0, 10, 5), "float32"),
    ("full", ((2,), 3), "float32"),
    ("full_like", (ones("int8"), 2.7), "int8"),
    ("concatenate", ([ones("int8"), ones("uint8")],), "int16"),
    ("relu", (ones("int32"),), "int32"),
    ("sigmoid", (ones("int32"),), "float32"),
    ("softmax", (ones("float16"),), "float16"),
    ("one_hot", (np.array([0, 1]), 3), "float32"),
    ("erf", (ones("int32"),), "float32"),
    ("logsumexp", (ones("int32"),), "float32"),
    ("det", (ones("int32", (2, 2)),), "float32"),
    ("norm", (ones("float16"),), "float16"),
    ("resize", (ones("uint8", (4, 4, 1)), (2, 2)), "uint8"),
]


@pytest.mark.parametrize(
    "op, args, expected", DTYPE_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(DTYPE_CASES)]
)
def test_result_dtype(op, args, expected):
    assert dtype_name(getattr(np_ops, op)(*args)) == expected


def test_convert_to_tensor_dtypes():
    assert dtype_name(np_ops.convert_to_tensor(1.5)) == "float32"
    assert dtype_name(np_ops.convert_to_tensor([1, 2])) == "int32"
    assert dtype_name(np_ops.convert_to_tensor(True)) == "bool"
    assert dtype_name(np_ops.convert_to_tensor(np.ones(2, "float64"))) == "float64"
    with pytest.raises(TypeError, match="ops.cast"):
        np_ops.cast(np.ones(2), "float128")


def test_saturate_cast_clips_to_the_target_range():
    got = np_ops.saturate_cast(np.array([-3.7, 300.5, 12.2, np.inf]), "uint8")
    np.testing.assert_array_equal(got, [0, 255, 12, 255])
    np.testing.assert_array_equal(
        np_ops.saturate_cast(np.array([-200, 5], "int32"), "int8"), [-128, 5]
    )


def test_bad_arguments_raise_named_errors():
    with pytest.raises(ValueError, match="ops.sum"):
        np_ops.sum(np.ones((2, 3)), axis=2)
    with pytest.raises(ValueError, match="ops.reshape"):
        np_ops.reshape(np.ones(6), (4, 2))
    with pytest.raises(ValueError, match="ops.conv"):
        np_ops.conv(np.ones((1, 5, 3), "float32"), np.ones((2, 2, 4), "float32"))


# -- control flow --------------------------------------------------------------------------------
def test_loops():
    assert np_ops.fori_loop(0, 5, lambda i, total: total + i, 0) == 10
    assert np_ops.while_loop(lambda i, t: i < 4, lambda i, t: (i + 1, t * 2), (0, 1)) == (4, 16)
    assert np_ops.while_loop(lambda i: i < 100, lambda i: i + 1, 0, maximum_iterations=7) == 7
    assert np_ops.cond(np.array(False), lambda: 1, lambda: 2) == 2
    assert np_ops.switch(5, [lambda x: x + 1, lambda x: x * 10], 3) == 30


def test_scan_map_and_associative_scan():
    xs = np.arange(1, 5, dtype="float32")
    carry, ys = np_ops.scan(lambda c, x: (c + x, c * x), 0.0, xs)
    assert carry == 10
    np.testing.assert_allclose(ys, [0, 2, 9, 24])
    carry, ys = np_ops.scan(lambda c, x: (c + x, {"seen": c}), 0.0, xs, reverse=True)
    np.testing.assert_allclose(ys["seen"], [9, 7, 4, 0])
    _, counted = np_ops.scan(lambda c, _: (c + 1, c), 0, length=3)
    np.testing.assert_array_equal(counted, [0, 1, 2])
    squares = np_ops.map(lambda pair: pair[0] * pair[1], (xs, xs))
    np.testing.assert_allclose(squares, xs**2)
    np.testing.assert_allclose(np_ops.vectorized_map(lambda x: x.sum(), np.ones((3, 2))), [2, 2, 2])
    matrix = rng.standard_normal((3, 5)).astype("float32")
    np.testing.assert_allclose(
        np_ops.associative_scan(np.add, matrix, axis=1), np.cumsum(matrix, axis=1), rtol=1e-6
    )
    np.testing.assert_allclose(
        np_ops.associative_scan(np.maximum, matrix, reverse=True),
        np.maximum.accumulate(matrix[::-1], axis=0)[::-1],
    )


def test_scatter_and_slices():
    np.testing.assert_array_equal(
        np_ops.scatter(np.array([[0], [0], [2]]), np.array([1, 2, 3]), (4,)), [3, 0, 3, 0]
    )
    base = np.zeros(4)
    np.testing.assert_array_equal(
        np_ops.scatter_update(base, [[1], [3]], np.array([5.0, 6.0])), [0, 5, 0, 6]
    )
    np.testing.assert_array_equal(
        np_ops.scatter_update(base + 1, [[0], [0]], np.array([2.0, 3.0]), "mul"), [6, 1, 1, 1]
    )
    x = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(np_ops.slice(x, (1, 1), (2, 2)), [[5, 6], [9, 10]])
    np.testing.assert_array_equal(
        np_ops.slice_update(x, (2, 2), np.zeros((1, 2), int))[2], [8, 9, 0, 0]
    )
    with pytest.raises(ValueError, match="ops.slice"):
        np_ops.slice(x, (2, 2), (2, 2))


def test_custom_gradient_and_stop_gradient_are_forward_only():
    @np_ops.custom_gradient
    def double(x):
        return x * 2, lambda upstream: upstream

    np.testing.assert_array_equal(double(np.ones(2)), [2, 2])
    np.testing.assert_array_equal(np_ops.stop_gradient(np.ones(2)), [1, 1])
    with pytest.raises(NotImplementedError, match="no automatic differentiation"):
        np_ops.jvp(lambda x: x, (1.0,), (1.0,))


# -- losses, normalization, activations ----------------------------------------------------------
def test_crossentropies_by_formula():
    target = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], "float32")
    probs = np.array([[0.2, 0.7, 0.1], [0.5, 0.25, 0.25]], "float32")
    np.testing.assert_allclose(
        np_ops.categorical_crossentropy(target, probs), -np.log([0.7, 0.5]), rtol=1e-6
    )
    logits = np.log(probs) + 3.0
    np.testing.assert_allclose(
        np_ops.categorical_crossentropy(target, logits, True), -np.log([0.7, 0.5]), rtol=1e-5
    )
    sparse = np_ops.sparse_categorical_crossentropy(np.array([1, 0]), probs)
    np.testing.assert_allclose(sparse, -np.log([0.7, 0.5]), rtol=1e-6)
    z = np.array([-40.0, 0.3, 40.0], "float32")
    y = np.array([1.0, 0.0, 1.0], "float32")
    # from logits: -y log(sigmoid(z)) - (1 - y) log(1 - sigmoid(z)), exactly even when saturated
    np.testing.assert_allclose(
        np_ops.binary_crossentropy(y, z, True),
        [40.0, np.log1p(np.exp(0.3)), np.exp(-40.0)],
        rtol=1e-5,
    )


def test_normalizations():
    x = rng.standard_normal((4, 3, 5)).astype("float32")
    mean, var = np_ops.moments(x, [0, 2])
    np.testing.assert_allclose(mean, x.mean(axis=(0, 2)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(var, x.var(axis=(0, 2)), rtol=1e-5)
    scale, offset = np.array([1.0, 2.0, 3.0], "float32"), np.array([0.0, 1.0, -1.0], "float32")
    got = np_ops.batch_normalization(x, mean, var, 1, offset, scale, epsilon=1e-3)
    expected = (x - mean[:, None]) / np.sqrt(var[:, None] + 1e-3) * scale[:, None] + offset[:, None]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    normed = np_ops.layer_normalization(x, epsilon=1e-6)
    np.testing.assert_allclose(
        normed,
        (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-6),
        rtol=1e-4,
        atol=1e-5,
    )


def test_activations_by_formula():
    x = np.linspace(-5, 5, 11).astype("float32")
    np.testing.assert_allclose(
        np_ops.gelu(x, False),
        0.5 * x * (1 + scipy.special.erf(x / math.sqrt(2))),
        rtol=1e-5,
        atol=1e-6,
    )
    tanh_gelu = 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
    np.testing.assert_allclose(np_ops.gelu(x), tanh_gelu, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np_ops.softplus(x), np.log1p(np.exp(x)), rtol=1e-5)
    np.testing.assert_allclose(np_ops.log_softmax(x), x - np.log(np.exp(x).sum()), rtol=1e-5)
    np.testing.assert_allclose(np_ops.elu(x, 0.5), np.where(x > 0, x, 0.5 * np.expm1(x)), rtol=1e-6)
    np.testing.assert_array_equal(np_ops.one_hot(np.array([2, -1, 5]), 3)[:, 2], [1, 0, 0])


# -- math and linalg -----------------------------------------------------------------------------
def test_special_functions_against_scipy():
    y = np.linspace(-0.999, 0.999, 41)
    np.testing.assert_allclose(
        np_ops.erfinv(y.astype("float32")), scipy.special.erfinv(y.astype("float32")), rtol=1e-5
    )
    np.testing.assert_allclose(np_ops.erfc(y), scipy.special.erfc(y), rtol=1e-6)


def test_segments_top_k_and_fft():
    data = np.arange(8, dtype="float32").reshape(4, 2)
    ids = np.array([0, 2, 2, 7])  # 7 is out of range: dropped
    np.testing.assert_array_equal(np_ops.segment_sum(data, ids, 3), [[0, 1], [0, 0], [6, 8]])
    np.testing.assert_array_equal(np_ops.segment_max(data, ids, 3)[1], [-np.inf, -np.inf])
    values, indices = np_ops.top_k(np.array([1, 3, 3, 2]), 2)
    np.testing.assert_array_equal(values, [3, 3])
    np.testing.assert_array_equal(indices, [1, 2])
    x = rng.standard_normal(8).astype("float32")
    real, imag = np_ops.rfft(x)
    np.testing.assert_allclose(real + 1j * imag, np.fft.rfft(x), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np_ops.irfft((real, imag)), x, rtol=1e-5, atol=1e-5)


def test_lu_factor_against_scipy():
    a = rng.standard_normal((4, 4))
    lu, pivots = np_ops.lu_factor(a)
    expected_lu, expected_pivots = scipy.linalg.lu_factor(a)
    np.testing.assert_allclose(lu, expected_lu, rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(pivots, expected_pivots)
    assert pivots.dtype == np.int32
    b = rng.standard_normal((4, 2))
    upper = np.triu(a) + 4 * np.eye(4)
    np.testing.assert_allclose(
        np_ops.solve_triangular(upper + np.tril(a, -1), b), np.linalg.solve(upper, b)
    )


# -- random --------------------------------------------------------------------------------------
def test_random_is_reproducible_and_well_shaped():
    first = np_ops.normal((3, 4), seed=42)
    np.testing.assert_array_equal(first, np_ops.normal((3, 4), seed=42))
    assert not np.array_equal(first, np_ops.normal((3, 4), seed=43))
    assert first.dtype == np.float32
    generator = SeedGenerator(1, backend=np_ops)
    assert not np.array_equal(
        np_ops.uniform((3,), seed=generator), np_ops.uniform((3,), seed=generator)
    )
    ints = np_ops.randint((1000,), 2, 5, seed=0)
    assert ints.dtype == np.int32 and set(np.unique(ints)) == {2, 3, 4}
    assert np.abs(np_ops.truncated_normal((1000,), seed=0)).max() <= 2
    dropped = np_ops.dropout(np.ones((100, 100), "float32"), 0.25, seed=3)
    assert set(np.unique(dropped)) == {0, np.float32(1 / 0.75)}
    np.testing.assert_array_equal(np.sort(np_ops.shuffle(np.arange(10), seed=1)), np.arange(10))
    draws = np_ops.categorical(np.log(np.array([[0.2, 0.8]])), 4000, seed=5)
    assert abs(draws.mean() - 0.8) < 0.03
    with pytest.raises(ValueError, match="ops.uniform"):
        np_ops.uniform((2,), dtype="int32")
