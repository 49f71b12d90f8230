"""The numpy backend: linalg ops (float results; ints compute as floatx)."""

import numpy as np

from tripod.backends.numpy import rules

__all__ = [
    "cholesky",
    "det",
    "eig",
    "eigh",
    "inv",
    "jvp",
    "lstsq",
    "lu_factor",
    "norm",
    "pinv",
    "qr",
    "solve",
    "solve_triangular",
    "svd",
]


def _square_matrices(x, name):
    """`x` as a float array of square matrices (..., M, M), and its result dtype."""
    dtype = rules.result(x, floating=True)
    x = rules.as_dtype(x, rules.work(dtype))
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{name} needs square matrices (..., M, M), received shape {x.shape}.")
    return x, dtype


def _floats(*xs):
    """The operands as arrays of their shared float dtype, and that dtype."""
    dtype = rules.result(*xs, floating=True)
    return [rules.as_dtype(x, rules.work(dtype)) for x in xs], dtype


def cholesky(x, upper=False):
    x, dtype = _square_matrices(x, "cholesky")
    lower = np.linalg.cholesky(x)
    return rules.finish(np.conj(np.swapaxes(lower, -1, -2)) if upper else lower, dtype)


def det(x):
    x, dtype = _square_matrices(x, "det")
    return rules.finish(np.linalg.det(x), dtype)


def inv(x):
    x, dtype = _square_matrices(x, "inv")
    return rules.finish(np.linalg.inv(x), dtype)


def eig(x):
    x, dtype = _square_matrices(x, "eig")
    complex_dtype = "complex128" if dtype == "float64" else "complex64"
    values, vectors = np.linalg.eig(x)
    return rules.finish(values, complex_dtype), rules.finish(vectors, complex_dtype)


def eigh(x):
    x, dtype = _square_matrices(x, "eigh")
    values, vectors = np.linalg.eigh(x)
    return rules.finish(values, dtype), rules.finish(vectors, dtype)


def solve(a, b):
    (a, b), dtype = _floats(a, b)
    return rules.finish(np.linalg.solve(a, b), dtype)


def solve_triangular(a, b, lower=False):
    (a, b), dtype = _floats(a, b)
    triangle = np.tril(a) if lower else np.triu(a)
    return rules.finish(np.linalg.solve(triangle, b), dtype)


def lstsq(a, b, rcond=None):
    (a, b), dtype = _floats(a, b)
    if a.ndim != 2 or b.ndim not in (1, 2) or a.shape[0] != b.shape[0]:
        raise ValueError(
            f"lstsq needs a (M, N) and b (M,) or (M, K), received {a.shape} and {b.shape}."
        )
    return rules.finish(np.linalg.lstsq(a, b, rcond=rcond)[0], dtype)


def pinv(x, rcond=None):
    (x,), dtype = _floats(x)
    if x.ndim < 2:
        raise ValueError(f"pinv needs matrices (..., M, N), received shape {x.shape}.")
    return rules.finish(
        np.linalg.pinv(x) if rcond is None else np.linalg.pinv(x, rcond=rcond), dtype
    )


def qr(x, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise ValueError(f"mode must be 'reduced' or 'complete', received {mode!r}.")
    (x,), dtype = _floats(x)
    q, r = np.linalg.qr(x, mode=mode)
    return rules.finish(q, dtype), rules.finish(r, dtype)


def svd(x, full_matrices=True, compute_uv=True):
    (x,), dtype = _floats(x)
    if not compute_uv:
        return rules.finish(np.linalg.svd(x, compute_uv=False), dtype)
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return rules.finish(u, dtype), rules.finish(s, dtype), rules.finish(vh, dtype)


def norm(x, ord=None, axis=None, keepdims=False):
    (x,), dtype = _floats(x)
    axis = tuple(axis) if isinstance(axis, list) else axis
    return rules.finish(np.linalg.norm(x, ord=ord, axis=axis, keepdims=keepdims), dtype)


def _lu_one(a):
    """LU with partial pivoting of one square matrix: (packed L\\U, LAPACK-style pivots)."""
    lu = a.copy()
    n = lu.shape[0]
    pivots = np.zeros(n, dtype=np.int32)
    for k in range(n):
        p = k + int(np.argmax(np.abs(lu[k:, k])))
        pivots[k] = p
        lu[[k, p]] = lu[[p, k]]
        if lu[k, k] != 0:
            lu[k + 1 :, k] /= lu[k, k]
            lu[k + 1 :, k + 1 :] -= np.outer(lu[k + 1 :, k], lu[k, k + 1 :])
    return lu, pivots


def lu_factor(x):
    x, dtype = _square_matrices(x, "lu_factor")
    flat = x.reshape((-1,) + x.shape[-2:]).astype(np.float64)
    parts = [_lu_one(m) for m in flat]
    lu = np.stack([p[0] for p in parts]).reshape(x.shape)
    pivots = np.stack([p[1] for p in parts]).reshape(x.shape[:-1])
    return rules.finish(lu, dtype), pivots


def jvp(fun, primals, tangents, has_aux=False):
    raise NotImplementedError(
        "ops.jvp: the numpy backend is inference-only and has no automatic differentiation."
    )
