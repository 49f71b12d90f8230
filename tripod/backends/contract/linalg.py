"""Linear-algebra ops."""

# ruff: noqa: A001, A002


def cholesky(x, upper=False):
    """DOC"""


def cholesky_inverse(x, upper=False):
    """DOC"""


def det(x):
    """DOC"""


def eig(x):
    """DOC"""


def eigh(x):
    """DOC"""


def inv(x):
    """DOC"""


def jvp(fun, primals, tangents, has_aux=False):
    """DOC"""


def lstsq(a, b, rcond=None):
    """DOC"""


def lu_factor(x):
    """DOC"""


def matrix_rank(x, tol=None):
    """DOC"""


def norm(x, ord=None, axis=None, keepdims=False):
    """DOC"""


def pinv(x, rcond=None):
    """DOC"""


def qr(x, mode='reduced'):
    """DOC"""


def solve(a, b):
    """DOC"""


def solve_triangular(a, b, lower=False):
    """DOC"""


def svd(x, full_matrices=True, compute_uv=True):
    """DOC"""
