"""The torch backend: linear-algebra ops (computed in float32/float64, returned in the input's
float dtype; integer inputs give floatx)."""

import torch

from tripod.backends.common import tree
from tripod.backends.torch.helpers import HALF_DTYPES, as_float
from tripod.backends.torch.tensors import cast_to, convert_to_tensor

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


def _matrix(x):
    """`x` as a float tensor torch's linear algebra accepts, and the dtype to return."""
    x = as_float(x)
    return (x.to(torch.float32), x.dtype) if x.dtype in HALF_DTYPES else (x, x.dtype)


def _square(x, name):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{name} needs square matrices (..., n, n), got shape {tuple(x.shape)}.")
    return x


def cholesky(x, upper=False):
    x, dtype = _matrix(x)
    return cast_to(torch.linalg.cholesky(_square(x, "cholesky"), upper=upper), dtype)


def det(x):
    x, dtype = _matrix(x)
    return cast_to(torch.linalg.det(_square(x, "det")), dtype)


def eig(x):
    x, _ = _matrix(x)
    return torch.linalg.eig(_square(x, "eig"))


def eigh(x):
    x, dtype = _matrix(x)
    values, vectors = torch.linalg.eigh(_square(x, "eigh"))
    return cast_to(values, dtype), cast_to(vectors, dtype)


def inv(x):
    x, dtype = _matrix(x)
    return cast_to(torch.linalg.inv(_square(x, "inv")), dtype)


def _pair(a, b):
    """Both operands as float tensors of one dtype, and the dtype to return."""
    a, b = as_float(a), as_float(b)
    dtype = torch.promote_types(a.dtype, b.dtype)
    compute = torch.float32 if dtype in HALF_DTYPES else dtype
    return a.to(compute), b.to(compute), dtype


def solve(a, b):
    a, b, dtype = _pair(a, b)
    return cast_to(torch.linalg.solve(_square(a, "solve"), b), dtype)


def solve_triangular(a, b, lower=False):
    a, b, dtype = _pair(a, b)
    vector = b.ndim == 1
    b = b.unsqueeze(-1) if vector else b
    out = torch.linalg.solve_triangular(_square(a, "solve_triangular"), b, upper=not lower)
    return cast_to((out.squeeze(-1) if vector else out), dtype)


def lstsq(a, b, rcond=None):
    a, b, dtype = _pair(a, b)
    if a.ndim != 2 or b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise ValueError(
            f"lstsq needs a of shape (m, n) and b of shape (m,) or (m, k); got "
            f"{tuple(a.shape)} and {tuple(b.shape)}."
        )
    # The minimum-norm solution, small singular values cut off as numpy does.
    return cast_to((torch.linalg.pinv(a, rtol=rcond) @ b), dtype)


def pinv(x, rcond=None):
    x, dtype = _matrix(x)
    return cast_to(torch.linalg.pinv(x, rtol=rcond), dtype)


def lu_factor(x):
    x, dtype = _matrix(x)
    lu, pivots = torch.linalg.lu_factor(x)
    return lu.to(dtype), (pivots - 1).to(torch.int32)


def norm(x, ord=None, axis=None, keepdims=False):
    x, dtype = _matrix(x)
    if isinstance(axis, int):
        axis = (axis,)
    elif axis is not None:
        axis = tuple(int(a) for a in axis)
    out = torch.linalg.norm(x, ord=ord, dim=axis, keepdim=keepdims)
    return out if x.is_complex() else cast_to(out, dtype)


def qr(x, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode must be 'reduced' or 'complete', received {mode!r}.")
    x, dtype = _matrix(x)
    q, r = torch.linalg.qr(x, mode=mode)
    return cast_to(q, dtype), cast_to(r, dtype)


def svd(x, full_matrices=True, compute_uv=True):
    x, dtype = _matrix(x)
    if not compute_uv:
        return cast_to(torch.linalg.svdvals(x), dtype)
    u, s, vh = torch.linalg.svd(x, full_matrices=full_matrices)
    return cast_to(u, dtype), cast_to(s, dtype), cast_to(vh, dtype)


def jvp(fun, primals, tangents, has_aux=False):
    primals = tuple(tree.map_structure(convert_to_tensor, p) for p in primals)
    tangents = tuple(
        tree.map_structure(lambda t, p: convert_to_tensor(t, p.dtype), t, p)
        for t, p in zip(tangents, primals)
    )
    return torch.func.jvp(fun, primals, tangents, has_aux=has_aux)
