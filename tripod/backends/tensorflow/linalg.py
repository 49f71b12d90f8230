"""The tensorflow backend: linalg ops (float results; ints compute as floatx)."""

import numpy as np
import tensorflow as tf

from tripod.backends.common import errors
from tripod.backends.tensorflow import elementwise_kernels as ew
from tripod.backends.tensorflow.tensors import as_tensors, cast

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
    """The operands as tensors of their shared float work dtype, and the result dtype."""
    dtype = ew.result(*xs, floating=True)
    return [cast(x, ew.work(dtype)) for x in xs], dtype


def _square_matrices(x, name):
    """`x` as float square matrices (..., M, M), and its result dtype."""
    (x,), dtype = _floats(x)
    if x.shape.rank < 2 or (x.shape[-1] is not None and x.shape[-1] != x.shape[-2]):
        raise ValueError(f"{name} needs square matrices (..., M, M), received shape {x.shape}.")
    return x, dtype


def _adjoint(x):
    return tf.linalg.adjoint(x) if x.dtype.is_complex else tf.linalg.matrix_transpose(x)


def cholesky(x, upper=False):
    x, dtype = _square_matrices(x, "cholesky")
    lower = tf.linalg.cholesky(x)
    return tf.cast(_adjoint(lower) if upper else lower, dtype)


def det(x):
    x, dtype = _square_matrices(x, "det")
    return tf.cast(tf.linalg.det(x), dtype)


def inv(x):
    x, dtype = _square_matrices(x, "inv")
    return tf.cast(tf.linalg.inv(x), dtype)


def eig(x):
    x, dtype = _square_matrices(x, "eig")
    values, vectors = tf.linalg.eig(x)
    complex_dtype = tf.complex128 if dtype == tf.float64 else tf.complex64
    return tf.cast(values, complex_dtype), tf.cast(vectors, complex_dtype)


def eigh(x):
    x, dtype = _square_matrices(x, "eigh")
    values, vectors = tf.linalg.eigh(x)
    return tf.cast(values, dtype), tf.cast(vectors, dtype)


def _matrix_rhs(a, b, name):
    """`b` as matrices broadcast against `a`'s batch, and whether it was a vector."""
    vector = b.shape.rank == 1
    if vector:
        b = b[:, None]
    if a.shape.rank < 2 or b.shape.rank < 2:
        raise ValueError(f"{name} needs a (..., M, M) and b (..., M) or (..., M, K).")
    batch = tf.broadcast_dynamic_shape(tf.shape(a)[:-2], tf.shape(b)[:-2])
    a = tf.broadcast_to(a, tf.concat([batch, tf.shape(a)[-2:]], 0))
    b = tf.broadcast_to(b, tf.concat([batch, tf.shape(b)[-2:]], 0))
    return a, b, vector


def solve(a, b):
    (a, b), dtype = _floats(a, b)
    a, b, vector = _matrix_rhs(a, b, "solve")
    x = tf.linalg.solve(a, b)
    return tf.cast(x[..., 0] if vector else x, dtype)


def solve_triangular(a, b, lower=False):
    (a, b), dtype = _floats(a, b)
    a, b, vector = _matrix_rhs(a, b, "solve_triangular")
    x = tf.linalg.triangular_solve(a, b, lower=lower)
    return tf.cast(x[..., 0] if vector else x, dtype)


def _pseudo_inverse(x, cutoff):
    """The pseudo-inverse of `x` dropping singular values <= cutoff * the largest (per matrix)."""
    s, u, v = tf.linalg.svd(x, full_matrices=False)
    limit = cutoff * tf.reduce_max(s, axis=-1, keepdims=True)
    inverse = tf.where(s > limit, 1 / tf.where(s > limit, s, tf.ones_like(s)), tf.zeros_like(s))
    return tf.linalg.matmul(v * tf.cast(inverse[..., None, :], v.dtype), _adjoint(u))


def lstsq(a, b, rcond=None):
    (a, b), dtype = _floats(a, b)
    if (
        a.shape.rank != 2
        or b.shape.rank not in (1, 2)
        or not a.shape[:1].is_compatible_with(b.shape[:1])
    ):
        raise ValueError(
            f"lstsq needs a (M, N) and b (M,) or (M, K), received {a.shape} and {b.shape}."
        )
    real = a.dtype.real_dtype
    if rcond is None:
        rcond = np.finfo(real.as_numpy_dtype).eps * tf.cast(tf.reduce_max(tf.shape(a)), real)
    inverse = _pseudo_inverse(a, tf.cast(rcond, real))
    x = tf.linalg.matmul(inverse, b[:, None] if b.shape.rank == 1 else b)
    return tf.cast(x[:, 0] if b.shape.rank == 1 else x, dtype)


def pinv(x, rcond=None):
    (x,), dtype = _floats(x)
    if x.shape.rank < 2:
        raise ValueError(f"pinv needs matrices (..., M, N), received shape {x.shape}.")
    cutoff = tf.constant(1e-15 if rcond is None else rcond, x.dtype.real_dtype)
    return tf.cast(_pseudo_inverse(x, cutoff), dtype)


def qr(x, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise ValueError(f"mode must be 'reduced' or 'complete', received {mode!r}.")
    (x,), dtype = _floats(x)
    q, r = tf.linalg.qr(x, full_matrices=mode == "complete")
    return tf.cast(q, dtype), tf.cast(r, dtype)


def svd(x, full_matrices=True, compute_uv=True):
    (x,), dtype = _floats(x)
    if not compute_uv:
        return tf.cast(tf.linalg.svd(x, compute_uv=False), dtype)
    s, u, v = tf.linalg.svd(x, full_matrices=full_matrices)
    return tf.cast(u, dtype), tf.cast(s, dtype), tf.cast(_adjoint(v), dtype)


# -- norms ---------------------------------------------------------------------------------------
def _vector_norm(x, ord, axis, keepdims):
    magnitude = tf.abs(x)
    if ord is None or ord == 2:
        return tf.sqrt(tf.reduce_sum(tf.square(magnitude), axis=axis, keepdims=keepdims))
    if ord == np.inf:
        return tf.reduce_max(magnitude, axis=axis, keepdims=keepdims)
    if ord == -np.inf:
        return tf.reduce_min(magnitude, axis=axis, keepdims=keepdims)
    if ord == 0:
        nonzero = tf.cast(tf.not_equal(magnitude, 0), magnitude.dtype)
        return tf.reduce_sum(nonzero, axis=axis, keepdims=keepdims)
    if ord in ("fro", "nuc"):
        raise ValueError(f"ord={ord!r} is not a vector norm.")
    power = tf.constant(ord, magnitude.dtype)
    return tf.pow(tf.reduce_sum(tf.pow(magnitude, power), axis=axis, keepdims=keepdims), 1 / power)


def _singular_values(x, axes):
    """The singular values of the matrices spanning `axes` of `x` (those axes become one, last)."""
    rest = [a for a in range(x.shape.rank) if a not in axes]
    return tf.linalg.svd(tf.transpose(x, rest + list(axes)), compute_uv=False)


def _matrix_norm(x, ord, axes, keepdims):
    rows, cols = axes
    magnitude = tf.abs(x)
    if ord is None or ord == "fro":
        return tf.sqrt(tf.reduce_sum(tf.square(magnitude), axis=axes, keepdims=keepdims))
    if ord in ("nuc", 2, -2):
        values = _singular_values(x, axes)
        reduce = {"nuc": tf.reduce_sum, 2: tf.reduce_max, -2: tf.reduce_min}[ord]
        result = reduce(values, axis=-1)
        for a in sorted(axes) if keepdims else []:
            result = tf.expand_dims(result, a)
        return result
    if ord in (1, -1, np.inf, -np.inf):
        summed, over = (rows, cols) if ord in (1, -1) else (cols, rows)
        sums = tf.reduce_sum(magnitude, axis=summed, keepdims=True)
        reduce = tf.reduce_max if ord in (1, np.inf) else tf.reduce_min
        result = reduce(sums, axis=over, keepdims=True)
        return result if keepdims else tf.squeeze(result, axes)
    raise ValueError(f"ord={ord!r} is not a matrix norm.")


def norm(x, ord=None, axis=None, keepdims=False):
    (x,), dtype = _floats(x)
    rank = x.shape.rank
    if axis is None:
        if ord is None:
            flat = tf.reshape(x, [-1])
            result = _vector_norm(flat, None, 0, False)
            return tf.cast(tf.reshape(result, [1] * rank) if keepdims else result, dtype.real_dtype)
        if rank not in (1, 2):
            raise ValueError(f"norm with ord={ord!r} needs a 1-D or 2-D input, or an axis.")
        axis = tuple(range(rank))
    axes = [
        errors.check_axis("norm", a, rank)
        for a in (axis if isinstance(axis, (tuple, list)) else [axis])
    ]
    if len(axes) == 1:
        result = _vector_norm(x, ord, axes[0], keepdims)
    elif len(axes) == 2 and axes[0] != axes[1]:
        result = _matrix_norm(x, ord, axes, keepdims)
    else:
        raise ValueError(f"norm needs one axis or two different axes, received {axis!r}.")
    return tf.cast(result, dtype.real_dtype)


# -- LU ------------------------------------------------------------------------------------------
def lu_factor(x):
    x, dtype = _square_matrices(x, "lu_factor")
    lu, permutation = tf.linalg.lu(x, output_idx_type=tf.int32)
    return tf.cast(lu, dtype), _pivots(permutation)


def _pivots(permutation):
    """LAPACK-style pivots (row i swapped with row pivots[i], in order) from a row permutation."""
    shape = tf.shape(permutation)
    n = permutation.shape[-1]
    if n is None:
        raise ValueError("lu_factor needs the matrix size to be known.")
    perm = tf.reshape(permutation, [-1, n])
    columns = tf.range(n)[None, :]
    current = tf.broadcast_to(columns, tf.shape(perm))  # the original row now at each position
    position = current  # where each original row is now

    def step(i, current, position, pivots):
        wanted = tf.gather(perm, i, axis=1)[:, None]
        j = tf.gather(position, wanted, batch_dims=1)
        here = tf.gather(current, i, axis=1)[:, None]
        current = tf.where(columns == i, wanted, tf.where(columns == j, here, current))
        position = tf.where(columns == wanted, i, tf.where(columns == here, j, position))
        return i + 1, current, position, pivots.write(i, j[:, 0])

    pivots = tf.TensorArray(tf.int32, size=n)
    pivots = tf.while_loop(lambda i, *_: i < n, step, (0, current, position, pivots))[3]
    return tf.reshape(tf.transpose(pivots.stack()), shape)


# -- forward-mode autodiff ---------------------------------------------------------------------
def jvp(fun, primals, tangents, has_aux=False):
    primals, tangents = as_tensors(tuple(primals)), as_tensors(tuple(tangents))
    flat_primals, flat_tangents = tf.nest.flatten(primals), tf.nest.flatten(tangents)
    with tf.autodiff.ForwardAccumulator(flat_primals, flat_tangents) as accumulator:
        outputs = fun(*primals)
    aux = None
    if has_aux:
        outputs, aux = outputs
    derivative = tf.nest.map_structure(
        lambda y: accumulator.jvp(y, unconnected_gradients=tf.UnconnectedGradients.ZERO), outputs
    )
    return (outputs, derivative, aux) if has_aux else (outputs, derivative)
