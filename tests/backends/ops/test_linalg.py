"""Parity of the linalg ops.

Factorizations that are unique only up to signs or order (eig, eigh, svd, qr) are compared
through quantities that are unique: sorted eigenvalues, |eigenvectors|, reconstructions.
"""

import functools

import numpy as np
import pytest

from tests.backends.ops import harness
from tests.backends.ops.cases import case, ops_in, params
from tests.backends.ops.harness import randn

# Factorizations run different LAPACK paths per framework; float32 results agree to ~1e-6 of
# the matrix norm, so entries of size ~5 need a little more room than 1e-5.
FACTOR_TOL = 1e-4


def _spd(*batch, n=3):
    a = randn(*batch, n, n)
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n, dtype="float32")


def _well_conditioned(*batch, n=3):
    return randn(*batch, n, n) + 3 * np.eye(n, dtype="float32")


SPD, SPD_BATCH = _spd(), _spd(2)
A, A_BATCH = _well_conditioned(), _well_conditioned(2, n=4)
TALL, WIDE = randn(5, 3), randn(3, 5)
LOWER = np.tril(A) + 2 * np.eye(3, dtype="float32")


def _numpy(ops, result):
    return [np.asarray(ops.convert_to_numpy(r)) for r in result]


def _eig_invariants(matrix):
    """Eigenvalues sorted, the residual |A v - v w| and the dtypes: unique for any valid result."""

    def post(ops, result):
        w, v = _numpy(ops, result)
        residual = np.abs(matrix.astype(v.dtype) @ v - v * w[..., None, :]).max()
        return np.sort(w, axis=-1), np.float32(residual), str(v.dtype)

    return post


def _eigh_invariants(matrix):
    def post(ops, result):
        w, v = _numpy(ops, result)
        residual = np.abs(matrix @ v - v * w[..., None, :]).max()
        return w, np.abs(v), np.float32(residual)

    return post


def _qr_invariants():
    """|q|, |r| (column/row signs are free) and q @ r."""

    def post(ops, result):
        q, r = _numpy(ops, result)
        return np.abs(q), np.abs(r), q @ r

    return post


def _svd_invariants():
    """s, u @ diag(s) @ vh, and u, vh orthonormal: sign choices drop out."""

    def post(ops, result):
        u, s, vh = _numpy(ops, result)
        k = s.shape[-1]
        rebuilt = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
        eye_u = np.swapaxes(u, -1, -2) @ u
        eye_v = vh @ np.swapaxes(vh, -1, -2)
        return s, rebuilt, eye_u, eye_v

    return post


NONSYMMETRIC = np.array([[4.0, 1.0, 0.0], [2.0, 3.0, 1.0], [0.0, 1.0, 1.0]], "float32")
ROTATION = np.array([[0.0, -2.0], [2.0, 0.0]], "float32")  # eigenvalues +-2i
RANK2 = randn(4, 2) @ randn(2, 5)

FACTORIZATIONS = [
    case("cholesky", SPD),
    case("cholesky", SPD_BATCH),
    case("cholesky", SPD, True),
    case("cholesky", SPD.astype("float64"), upper=False),
    case("cholesky_inverse", np.linalg.cholesky(SPD)),
    case("cholesky_inverse", np.linalg.cholesky(SPD_BATCH)),
    case("cholesky_inverse", np.swapaxes(np.linalg.cholesky(SPD), -1, -2).copy(), upper=True),
    case("eig", NONSYMMETRIC).then(_eig_invariants(NONSYMMETRIC)).tol(FACTOR_TOL),
    case("eig", ROTATION).then(_eig_invariants(ROTATION)).tol(FACTOR_TOL),
    case("eig", SPD_BATCH).then(_eig_invariants(SPD_BATCH)).tol(FACTOR_TOL),
    case("eigh", SPD).then(_eigh_invariants(SPD)).tol(FACTOR_TOL),
    case("eigh", SPD_BATCH).then(_eigh_invariants(SPD_BATCH)).tol(FACTOR_TOL),
    case("eigh", SPD.astype("float64")).then(_eigh_invariants(SPD)).tol(FACTOR_TOL),
    case("lu_factor", A).tol(FACTOR_TOL),
    case("lu_factor", A_BATCH).tol(FACTOR_TOL),
    case("lu_factor", np.array([[1.0, 2.0], [3.0, 4.0]], "float32")),
    case("qr", TALL).then(_qr_invariants()).tol(FACTOR_TOL),
    # complete mode: one extra column of q, unique up to its sign
    case("qr", randn(4, 3), mode="complete").then(_qr_invariants()).tol(FACTOR_TOL),
    case("qr", WIDE, "reduced").then(_qr_invariants()).tol(FACTOR_TOL),
    case("qr", A_BATCH).then(_qr_invariants()).tol(FACTOR_TOL),
    case("svd", TALL, False).then(_svd_invariants()).tol(FACTOR_TOL),
    case("svd", WIDE, full_matrices=False).then(_svd_invariants()).tol(FACTOR_TOL),
    case("svd", randn(2, 4, 3)).then(_svd_invariants()).tol(FACTOR_TOL),
    case("svd", TALL, compute_uv=False).tol(FACTOR_TOL),
    case("svd", A_BATCH, True, False).tol(FACTOR_TOL),
]

SOLVERS = [
    case("det", A),
    case("det", A_BATCH).tol(FACTOR_TOL),
    case("det", A.astype("float64")),
    case("det", np.array([[1.0, 2.0], [2.0, 4.0]], "float32")),
    case("inv", A).tol(FACTOR_TOL),
    case("inv", A_BATCH).tol(FACTOR_TOL),
    case("inv", SPD.astype("float64")),
    case("solve", A, randn(3, 2)).tol(FACTOR_TOL),
    case("solve", A_BATCH, randn(2, 4, 3)).tol(FACTOR_TOL),
    case("solve", A, randn(3)).tol(FACTOR_TOL),
    case("solve", A.astype("float64"), randn(3, 1).astype("float64")),
    case("solve_triangular", LOWER, randn(3, 2), True).tol(FACTOR_TOL),
    case("solve_triangular", LOWER.T.copy(), randn(3, 2)).tol(FACTOR_TOL),
    case(
        "solve_triangular",
        np.triu(A_BATCH) + 2 * np.eye(4, dtype="float32"),
        randn(2, 4, 1),
        lower=False,
    ).tol(FACTOR_TOL),
    case("solve_triangular", LOWER, randn(3), lower=True).tol(FACTOR_TOL),
    case("lstsq", TALL, randn(5, 2)).tol(FACTOR_TOL),
    case("lstsq", TALL, randn(5)).tol(FACTOR_TOL),
    case("lstsq", A, randn(3, 1), rcond=1e-6).tol(FACTOR_TOL),
    case("pinv", TALL).tol(FACTOR_TOL),
    case("pinv", WIDE).tol(FACTOR_TOL),
    case("pinv", A_BATCH).tol(FACTOR_TOL),
    case("pinv", RANK2, rcond=1e-4).tol(FACTOR_TOL),
    case("matrix_rank", A),
    case("matrix_rank", RANK2),
    case("matrix_rank", np.stack([RANK2, randn(4, 5)])),
    case("matrix_rank", RANK2, tol=1e-3),
    case("matrix_rank", np.zeros((3, 3), "float32")),
    case("matrix_rank", randn(3, 3), 100.0),
]

V = randn(2, 3, 4)
NORMS = [
    case("norm", V),
    case("norm", V, axis=-1),
    case("norm", V, 1, 0),
    case("norm", V, 2, axis=1, keepdims=True),
    case("norm", V, np.inf, -1),
    case("norm", V, -np.inf, -1),
    case("norm", V, 0, -1),
    case("norm", V, 3, -1),
    case("norm", V, -1, -1),
    case("norm", V, "fro", (1, 2)),
    case("norm", V, "nuc", (-2, -1)).tol(FACTOR_TOL),
    case("norm", V, 1, (1, 2)),
    case("norm", V, -1, (1, 2)),
    case("norm", V, np.inf, (1, 2)),
    case("norm", V, -np.inf, (1, 2)),
    case("norm", V, 2, (1, 2)).tol(FACTOR_TOL),
    case("norm", V, -2, (1, 2)).tol(FACTOR_TOL),
    case("norm", V, None, (0, 2), keepdims=True),
    case("norm", A),
    case("norm", A, "fro"),
    case("norm", randn(4)),
    case("norm", harness.randint(2, 3, low=-3, high=3)),
    case("norm", randn(4).astype("float64"), 2),
]

CASES = FACTORIZATIONS + SOLVERS + NORMS
TESTED = ops_in(CASES) | {"jvp"}


@pytest.mark.parametrize("c", params(CASES))
def test_parity(c):
    c.run()


# (f(ops, *primals), primals, tangents, expected (outputs, tangent outputs) as NumPy values)
P, T = randn(3), randn(3)
JVP = {
    "square": (lambda ops, x: ops.multiply(x, x), (P,), (T,), (P * P, 2 * P * T)),
    "sum_of_products": (
        lambda ops, x, y: ops.sum(ops.multiply(x, y)),
        (P, 2 * P),
        (T, T),
        (np.sum(2 * P * P), np.sum(T * 2 * P + P * T)),
    ),
    "sin": (lambda ops, x: ops.sin(x), (P,), (np.ones(3, "float32"),), (np.sin(P), np.cos(P))),
}


def _jvp_or_skip(ops, *args, **kwargs):
    """`ops.jvp(...)`, skipping on the numpy backend, which cannot differentiate."""
    try:
        return ops.jvp(*args, **kwargs)
    except NotImplementedError:
        if ops.name != "numpy":
            raise
        pytest.skip("the numpy backend cannot differentiate")


@pytest.mark.parametrize("name", sorted(JVP))
def test_jvp_matches_the_analytic_derivative(name):
    f, primals, tangents, expected = JVP[name]
    ops = harness.BACKEND
    result = _jvp_or_skip(
        ops, functools.partial(f, ops), harness.to_backend(primals), harness.to_backend(tangents)
    )
    harness.assert_same(harness.to_numpy(tuple(result)), expected, path="ops.jvp")


def test_jvp_with_aux():
    ops = harness.BACKEND

    def fun(x):
        return ops.square(x), ops.sum(x)

    primals, tangents = (ops.convert_to_tensor(P),), (ops.convert_to_tensor(T),)
    out, tangent, aux = _jvp_or_skip(ops, fun, primals, tangents, has_aux=True)
    expected = (P * P, 2 * P * T, np.sum(P))
    harness.assert_same(harness.to_numpy((out, tangent, aux)), expected, path="ops.jvp")
