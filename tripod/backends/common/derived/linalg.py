"""Linear-algebra ops written over a backend's other ops."""

from tripod.backends.common.derived import helpers as c

__all__ = ["cholesky_inverse", "matrix_rank"]


def _square_matrices(name, shape):
    """The size M of a (..., M, M) batch of matrices, checked."""
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"ops.{name}: expected square matrices (..., M, M), got shape {shape}.")
    return shape[-1]


def cholesky_inverse(ops, x, upper=False):
    x = c.to_float(ops, x)
    size = _square_matrices("cholesky_inverse", c.shape(ops, x))
    identity = ops.broadcast_to(ops.eye(size, dtype=c.dtype_of(ops, x)), c.shape(ops, x))
    factor_inverse = ops.solve_triangular(x, identity, lower=not upper)
    transposed = ops.swapaxes(ops.conj(factor_inverse), -1, -2)
    if upper:
        return ops.matmul(factor_inverse, transposed)
    return ops.matmul(transposed, factor_inverse)


def matrix_rank(ops, x, tol=None):
    x = c.to_float(ops, x)
    shape = c.shape(ops, x)
    if len(shape) < 2:
        raise ValueError(f"ops.matrix_rank: expected matrices (..., M, N), got shape {shape}.")
    singular = ops.svd(x, compute_uv=False)
    if tol is None:
        eps = c.EPS[c.dtype_of(ops, singular)]
        tol = ops.multiply(ops.max(singular, axis=-1, keepdims=True), max(shape[-2:]) * eps)
    else:
        tol = ops.convert_to_tensor(tol)
        if c.shape(ops, tol):
            tol = ops.expand_dims(tol, -1)
    return ops.sum(ops.cast(ops.greater(singular, tol), "int32"), axis=-1)
