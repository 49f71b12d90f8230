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
    """The vector or matrix norm `ord` of `x` over `axis` (Frobenius/2-norm by default).

    With an int `axis`, each slice along it is a vector; with a pair of axes, each slice over
    them is a matrix. Without `axis`, a 1-D `x` is a vector and a 2-D one a matrix (with `ord`
    None, any `x` is flattened into one vector).

    Args:
        x: tensor.
        ord: the kind of norm; default None: the Euclidean norm of vectors, the Frobenius norm
            of matrices. For vectors: a number `p` gives `sum(abs(x)**p)**(1/p)` (1: the sum
            of absolute values, 2: Euclidean), `float("inf")` the largest absolute value,
            `-float("inf")` the smallest, 0 the count of non-zero entries. For matrices: "fro"
            (Frobenius), "nuc" (the sum of singular values), 1 and -1 (the largest and smallest
            column sum of absolute values), `float("inf")` and `-float("inf")` (the same over
            rows), 2 and -2 (the largest and smallest singular value).
        axis: None, an int (vector norms) or a pair of ints (matrix norms); default None, as
            described above.
        keepdims: bool, default False. True keeps the reduced axes with size 1, so that the
            result broadcasts against `x` (as in `x / norm(x, axis=-1, keepdims=True)`).

    Returns:
        A tensor of `x`'s shape without the reduced axes (or with them as size 1 when
        `keepdims`); float inputs keep their dtype, integers give floatx.

    Examples:
        >>> float(tripod.ops.norm(np.array([3.0, 4.0], "float32")))
        5.0
        >>> x = np.array([[1.0, -2.0], [3.0, -4.0]], "float32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.norm(x, ord=1, axis=1)))  # per row
        [3. 7.]
    """


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
