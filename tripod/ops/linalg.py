"""`tripod.ops.linalg`: the linalg ops of the active backend; they are built in tripod/api/ops.py from the ops contract."""

from tripod.api.ops import (
    cholesky,
    cholesky_inverse,
    det,
    eig,
    eigh,
    inv,
    jvp,
    lstsq,
    lu_factor,
    matrix_rank,
    norm,
    pinv,
    qr,
    solve,
    solve_triangular,
    svd,
)

__all__ = [
    "cholesky",
    "cholesky_inverse",
    "det",
    "eig",
    "eigh",
    "inv",
    "jvp",
    "lstsq",
    "lu_factor",
    "matrix_rank",
    "norm",
    "pinv",
    "qr",
    "solve",
    "solve_triangular",
    "svd",
]
