"""Linear-algebra ops."""


def cholesky(x, upper=False):
    """The Cholesky factor of the positive-definite matrices `x` (lower, or upper if asked)."""


def cholesky_inverse(x, upper=False):
    """The inverse of A given its Cholesky factor `x` (lower, or upper if `upper`)."""


def det(x):
    """The determinant of each square matrix in the last two axes of `x`."""


def eig(x):
    """Eigenvalues and right eigenvectors (columns) of general square matrices `x`."""


def eigh(x):
    """Ascending eigenvalues and eigenvectors (columns) of symmetric/Hermitian matrices `x`."""


def inv(x):
    """The inverse of each square matrix in the last two axes of `x`."""


def jvp(fun, primals, tangents, has_aux=False):
    """`(fun(*primals), J @ tangents)`: the forward-mode Jacobian-vector product (plus aux)."""


def lstsq(a, b, rcond=None):
    """The least-squares solution x minimizing ||a @ x - b||."""


def lu_factor(x):
    """The packed LU factorization of `x` and its 0-based row pivot indices."""


def matrix_rank(x, tol=None):
    """The rank of each matrix in `x`: singular values above `tol` counted."""


def norm(x, ord=None, axis=None, keepdims=False):
    """The vector or matrix norm `ord` of `x` over `axis` (Frobenius/2-norm by default)."""


def pinv(x, rcond=None):
    """The Moore-Penrose pseudo-inverse of each matrix in `x`, via SVD."""


def qr(x, mode="reduced"):
    """The QR factorization `(q, r)` of `x`, in `reduced` or `complete` mode."""


def solve(a, b):
    """The solution x of `a @ x = b` for square `a`."""


def solve_triangular(a, b, lower=False):
    """The solution x of `a @ x = b` for triangular `a` (upper unless `lower`)."""


def svd(x, full_matrices=True, compute_uv=True):
    """The singular value decomposition `(u, s, vh)` of `x`, or only `s`."""
