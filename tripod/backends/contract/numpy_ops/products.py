"""NumPy-style ops that combine or search whole arrays: products, sorting, searching and
indexing."""


def argpartition(x, kth, axis=-1):
    """int32 indices that put the `kth` element in its sorted place along `axis`."""


def argsort(x, axis=-1):
    """int32 indices that sort `x` along `axis` (of the flattened `x` if None).

    The sort is ascending and stable: equal values keep their original order. Picking the values
    of `x` at these indices (`take_along_axis(x, indices, axis)`) gives `sort(x, axis)`.

    Args:
        x: tensor (or array-like) to sort.
        axis: int, the axis to sort along; default -1, the last axis. None sorts the flattened
            `x`.

    Returns:
        An int32 tensor of the shape of `x` (1-D, of `x`'s size, when `axis` is None; a 0-d
        `x` gives a 0-d 0, where NumPy gives shape `(1,)`). Along `axis`, entry `j` is the
        position in `x` of the value that comes `j`-th in sorted order.

    Raises:
        ValueError: `axis` out of range for `x` (NumPy's AxisError); a 0-d `x`, one element,
            takes -1, 0 or None.

    Examples:
        >>> x = tripod.ops.convert_to_tensor([3, 1, 2, 1])
        >>> tripod.ops.convert_to_numpy(tripod.ops.argsort(x))  # the two 1s keep their order
        array([1, 3, 2, 0], dtype=int32)
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.argsort([[3, 1], [0, 2]], axis=0)))
        [[1 0]
         [0 1]]
    """


def correlate(x1, x2, mode="valid"):
    """The 1-D cross-correlation of `x1` and `x2` (mode valid, same or full)."""


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 2- or 3-element vectors along the given axes."""


def diagonal(x, offset=0, axis1=0, axis2=1):
    """The `offset` diagonals of the matrices spanned by `axis1` and `axis2`."""


def digitize(x, bins):
    """int32 index of the bin of `bins` each element of `x` falls in."""


def dot(x1, x2):
    """The dot product of `x1` and `x2` (matrix product for 2-D, sum-product over last axes).

    What is summed depends on the ranks, as in NumPy's `dot`:

    - both 1-D: the inner product, a scalar;
    - both 2-D: the matrix product (prefer `matmul` there);
    - either 0-d: the element-wise product;
    - `x1` N-D and `x2` 1-D: a sum-product over the last axis of both;
    - `x1` N-D and `x2` M-D (M >= 2): a sum-product over the last axis of `x1` and the
      second-to-last axis of `x2`.

    Args:
        x1: tensor, the first factor.
        x2: tensor, the second factor; its summed axis must have the size of `x1`'s last axis.

    Returns:
        A tensor of the promoted dtype of `x1` and `x2`, of shape `x1.shape[:-1] +
        x2.shape[:-2] + x2.shape[-1:]` in the general case (`x1.shape[:-1]` when `x2` is 1-D;
        `()` for two vectors).

    Examples:
        >>> a = np.array([[1.0, 2.0], [3.0, 4.0]], "float32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.dot(a, np.array([1.0, 1.0], "float32"))))
        [3. 7.]
        >>> float(tripod.ops.dot([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]))
        32.0
    """


def einsum(subscripts, *operands, **kwargs):
    """The Einstein summation `subscripts` over `operands`.

    One equation states a product, a contraction, a transpose or a reduction: each operand's
    axes get a letter; letters shared between operands are multiplied together, and letters
    missing from the output are summed over.

    Args:
        subscripts: str, the equation, e.g. `"ij,jk->ik"` (a matrix product). Comma-separated
            terms name the axes of each operand, one letter per axis; the letters after `->`
            give the output's axes in order. Without `->`, the output holds the letters that
            appear once, in alphabetical order. `...` stands for any number of leading axes,
            which broadcast.
        *operands: tensors, one per comma-separated term. Their dtypes promote to one result
            dtype, except that all-int8 operands are summed, and returned, in int32.
        **kwargs: options of the framework's own einsum (such as NumPy's and JAX's `optimize`),
            passed on where it takes them and ignored elsewhere (torch); they never change the
            result, and portable code leaves them out.

    Returns:
        A tensor of the promoted dtype, with one axis per output letter, of the size that letter
        has in the operands.

    Examples:
        >>> a = np.arange(6, dtype="float32").reshape(2, 3)
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.einsum("ij->ji", a)))  # a transpose
        [[0. 3.]
         [1. 4.]
         [2. 5.]]
        >>> v = np.ones(3, "float32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.einsum("ij,j->i", a, v)))  # a @ v
        [ 3. 12.]
    """


def get_item(x, key):
    """`x[key]` for a NumPy-style index `key`."""


def inner(x1, x2):
    """The inner product: a sum-product over the last axes of `x1` and `x2`."""


def isin(x1, x2, assume_unique=False, invert=False):
    """Element-wise test of whether each `x1` value occurs in `x2`."""


def kron(x1, x2):
    """The Kronecker product of `x1` and `x2`."""


def matmul(x1, x2):
    """The matrix product of `x1` and `x2`, batching over leading axes.

    The last two axes of each operand hold the matrices; any axes before them are batch axes,
    which broadcast against each other. A 1-D `x1` is read as a row vector and a 1-D `x2` as a
    column vector, and that vector's axis is dropped from the result.

    Args:
        x1: tensor of rank >= 1, shape `(..., n, k)` (or `(k,)`).
        x2: tensor of rank >= 1, shape `(..., k, m)` (or `(k,)`); `k` must match `x1`'s.

    Returns:
        A tensor of shape `broadcast(batch axes) + (n, m)` (without `n` or `m` for a 1-D
        operand). Its dtype is the promoted dtype of `x1` and `x2`, except that two int8
        operands give int32.

    Raises:
        ValueError: an operand is a scalar (0-d), or the inner sizes `k` differ (a TypeError
            on jax).

    Examples:
        >>> a = np.array([[1.0, 2.0], [3.0, 4.0]], "float32")
        >>> b = np.array([[5.0], [6.0]], "float32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.matmul(a, b)))
        [[17.]
         [39.]]
        >>> batch = np.ones((5, 2, 3), "float32")
        >>> tripod.ops.shape(tripod.ops.matmul(batch, np.ones((3, 4), "float32")))
        (5, 2, 4)
    """


def nonzero(x):
    """A tuple of int32 index tensors, one per axis, of the non-zero elements."""


def outer(x1, x2):
    """The outer product of the flattened `x1` and `x2`."""


def searchsorted(sorted_sequence, values, side="left"):
    """int32 insertion indices of `values` into the 1-D `sorted_sequence`."""


def slogdet(x):
    """The sign and natural log of the absolute determinant of each matrix."""


def sort(x, axis=-1):
    """`x` sorted ascending along `axis` (flattened if None).

    Args:
        x: tensor to sort.
        axis: int, the axis to sort along; default -1, the last axis. None sorts the flattened
            `x`.

    Returns:
        A tensor of `x`'s dtype and shape (1-D when `axis` is None) whose values increase along
        `axis`. `argsort` gives the positions they came from.

    Raises:
        ValueError: `axis` out of range for `x` (NumPy's AxisError): a 0-d `x` has no axis to
            sort along, only `axis=None`, which sorts it as 1-D.

    Examples:
        >>> x = np.array([[3, 1, 2], [9, 7, 8]], "int32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.sort(x)))
        [[1 2 3]
         [7 8 9]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.sort(x, axis=None)))
        [1 2 3 7 8 9]
    """


def take(x, indices, axis=None):
    """Elements of `x` at `indices` along `axis` (of the flattened `x` if None).

    Args:
        x: tensor to gather from.
        indices: int tensor (or array-like) of any shape, the positions to pick along `axis`;
            a negative index counts from the end. Indices must lie in `[-n, n)` for an axis of
            size `n`.
        axis: int, the axis to pick along; default None picks from the flattened `x`.

    Returns:
        A tensor of `x`'s dtype and of shape `x.shape[:axis] + indices.shape +
        x.shape[axis + 1:]` (`indices.shape` when `axis` is None): the axis `axis` is replaced
        by the axes of `indices`.

    Raises:
        ValueError: an index outside `[-n, n)`, on every backend when called eagerly. Inside a
            compiled function (`jax.jit`, `tf.function`) jax cannot check: there an index
            outside gives NaN (an integer's minimum for ints), as `jnp.take` does.

    Examples:
        >>> x = np.array([[10, 20, 30], [40, 50, 60]], "int32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.take(x, [2, 0], axis=1)))
        [[30 10]
         [60 40]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.take(x, [[0, -1]])))
        [[10 60]]
    """


def take_along_axis(x, indices, axis=None):
    """Elements of `x` picked along `axis` by matching-shape `indices`.

    Each entry of the result is the element of `x` found at that entry's position on every
    other axis, and at the index `indices` holds there along `axis`. This is how the output of
    `argsort`, or of `argmax` with `keepdims=True`, selects values from `x`.

    Args:
        x: tensor to pick from.
        indices: int tensor of `x`'s rank; on every axis but `axis`, its size and `x`'s
            broadcast against each other. Its size along `axis` is free.
        axis: int, the axis to pick along; default None flattens `x` and `indices` first.

    Returns:
        A tensor of `x`'s dtype, of the broadcast shape of `x` and `indices` except along
        `axis`, where it has `indices`' size (1-D when `axis` is None).

    Raises:
        ValueError: `indices` and `x` differ in rank.

    Examples:
        >>> x = np.array([[10, 30, 20], [60, 40, 50]], "int32")
        >>> order = tripod.ops.argsort(x, axis=1)
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.take_along_axis(x, order, axis=1)))
        [[10 20 30]
         [40 50 60]]
        >>> picks = np.array([[1], [0]], "int32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.take_along_axis(x, picks, axis=1)))
        [[30]
         [60]]
    """


def tensordot(x1, x2, axes=2):
    """The sum-product of `x1` and `x2` over `axes` (a count or two axis lists)."""


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of `y` along `axis` by the trapezoidal rule, at points `x` or spacing `dx`."""


def unique(
    x,
    sorted=True,
    return_index=False,
    return_inverse=False,
    return_counts=False,
    axis=None,
    size=None,
    fill_value=None,
):
    """The sorted unique values of `x`, with optional indices, inverse and counts."""


def unravel_index(indices, shape):
    """A tuple of coordinate tensors for flat `indices` into an array of `shape`."""


def vdot(x1, x2):
    """The dot product of the flattened `x1` (conjugated) and `x2`."""
