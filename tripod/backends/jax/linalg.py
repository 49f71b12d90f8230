"""The jax backend: linalg ops (float results; ints compute as floatx) and `jvp`."""

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl

from tripod.backends.jax.core import convert_to_tensor
from tripod.backends.jax.helpers import as_dtype, axis_arg, np_dtype, result_dtype, work_dtype

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


def _floats(*xs):
    """The operands as tensors of their shared float compute dtype, and the result dtype."""
    dtype = result_dtype(*xs, floating=True)
    return [as_dtype(x, work_dtype(dtype)) for x in xs], dtype


def _square_matrices(x, name):
    """`x` as float square matrices (..., M, M), and the result dtype."""
    (x,), dtype = _floats(x)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{name} needs square matrices (..., M, M), received shape {x.shape}.")
    return x, dtype


def _finish(value, dtype):
    return value.astype(np_dtype(dtype))


def cholesky(x, upper=False):
    x, dtype = _square_matrices(x, "cholesky")
    lower = jnp.linalg.cholesky(x)
    if not isinstance(lower, jax.core.Tracer) and bool(jnp.any(jnp.isnan(lower))):
        raise ValueError("the matrix is not positive definite (the Cholesky factorization failed).")
    return _finish(jnp.conj(jnp.swapaxes(lower, -1, -2)) if upper else lower, dtype)


def det(x):
    x, dtype = _square_matrices(x, "det")
    return _finish(jnp.linalg.det(x), dtype)


def inv(x):
    x, dtype = _square_matrices(x, "inv")
    return _finish(jnp.linalg.inv(x), dtype)


def eig(x):
    x, dtype = _square_matrices(x, "eig")
    complex_dtype = "complex128" if dtype == "float64" else "complex64"
    values, vectors = jnp.linalg.eig(x)
    return _finish(values, complex_dtype), _finish(vectors, complex_dtype)


def eigh(x):
    x, dtype = _square_matrices(x, "eigh")
    values, vectors = jnp.linalg.eigh(x)
    return _finish(values, dtype), _finish(vectors, dtype)


def solve(a, b):
    (a, b), dtype = _floats(a, b)
    return _finish(jnp.linalg.solve(a, b), dtype)


def solve_triangular(a, b, lower=False):
    (a, b), dtype = _floats(a, b)
    vector = b.ndim == a.ndim - 1
    b = b[..., None] if vector else b
    out = jsl.solve_triangular(a, b, lower=lower)
    return _finish(out[..., 0] if vector else out, dtype)


def lstsq(a, b, rcond=None):
    (a, b), dtype = _floats(a, b)
    if a.ndim != 2 or b.ndim not in (1, 2) or a.shape[0] != b.shape[0]:
        raise ValueError(
            f"lstsq needs a (M, N) and b (M,) or (M, K), received {a.shape} and {b.shape}."
        )
    return _finish(jnp.linalg.lstsq(a, b, rcond=rcond)[0], dtype)


def pinv(x, rcond=None):
    (x,), dtype = _floats(x)
    if x.ndim < 2:
        raise ValueError(f"pinv needs matrices (..., M, N), received shape {x.shape}.")
    return _finish(jnp.linalg.pinv(x, rtol=rcond), dtype)


def qr(x, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise ValueError(f"mode must be 'reduced' or 'complete', received {mode!r}.")
    (x,), dtype = _floats(x)
    q, r = jnp.linalg.qr(x, mode=mode)
    return _finish(q, dtype), _finish(r, dtype)


def svd(x, full_matrices=True, compute_uv=True):
    (x,), dtype = _floats(x)
    if not compute_uv:
        return _finish(jnp.linalg.svd(x, compute_uv=False), dtype)
    u, s, vh = jnp.linalg.svd(x, full_matrices=full_matrices)
    return _finish(u, dtype), _finish(s, dtype), _finish(vh, dtype)


def norm(x, ord=None, axis=None, keepdims=False):
    (x,), dtype = _floats(x)
    return _finish(jnp.linalg.norm(x, ord=ord, axis=axis_arg(axis), keepdims=keepdims), dtype)


def lu_factor(x):
    x, dtype = _square_matrices(x, "lu_factor")
    lu, pivots = jsl.lu_factor(x)
    return _finish(lu, dtype), pivots.astype(jnp.int32)


def jvp(fun, primals, tangents, has_aux=False):
    primals = jax.tree.map(convert_to_tensor, tuple(primals))
    tangents = jax.tree.map(lambda t, p: convert_to_tensor(t, p.dtype), tuple(tangents), primals)
    return jax.jvp(fun, primals, tangents, has_aux=has_aux)
