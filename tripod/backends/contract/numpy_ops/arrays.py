"""NumPy-style ops on whole arrays: shape, joins and splits, indexing, sorting, products."""


def append(x1, x2, axis=None):
    """`x2` appended to `x1` along `axis` (both flattened if None)."""


def argpartition(x, kth, axis=-1):
    """int32 indices that put the `kth` element in its sorted place along `axis`."""


def argsort(x, axis=-1):
    """int32 indices that sort `x` along `axis` (of the flattened `x` if None)."""


def array_split(x, indices_or_sections, axis=0):
    """`x` split along `axis` into sections (which may differ in size by one)."""


def broadcast_to(x, shape):
    """`x` broadcast to `shape`."""


def concatenate(xs, axis=0):
    """The tensors `xs` joined along existing `axis`."""


def correlate(x1, x2, mode="valid"):
    """The 1-D cross-correlation of `x1` and `x2` (mode valid, same or full)."""


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 2- or 3-element vectors along the given axes."""


def diagonal(x, offset=0, axis1=0, axis2=1):
    """The `offset` diagonals of the matrices spanned by `axis1` and `axis2`."""


def diff(a, n=1, axis=-1):
    """The `n`-th discrete difference along `axis`."""


def digitize(x, bins):
    """int32 index of the bin of `bins` each element of `x` falls in."""


def dot(x1, x2):
    """The dot product of `x1` and `x2` (matrix product for 2-D, sum-product over last axes)."""


def dsplit(x, indices_or_sections):
    """`x` split along its third axis."""


def dstack(xs):
    """The tensors `xs` stacked along the third axis (1-D and 2-D inputs promoted first)."""


def einsum(subscripts, *operands, **kwargs):
    """The Einstein summation `subscripts` over `operands`."""


def expand_dims(x, axis):
    """`x` with a size-1 axis inserted at `axis` (an int or a tuple)."""


def flip(x, axis=None):
    """`x` with the order of elements reversed along `axis` (all axes if None)."""


def fliplr(x):
    """`x` reversed along axis 1."""


def flipud(x):
    """`x` reversed along axis 0."""


def get_item(x, key):
    """`x[key]` for a NumPy-style index `key`."""


def hsplit(x, indices_or_sections):
    """`x` split along axis 1 (axis 0 for 1-D `x`)."""


def hstack(xs):
    """The tensors `xs` joined along axis 1 (axis 0 for 1-D inputs)."""


def inner(x1, x2):
    """The inner product: a sum-product over the last axes of `x1` and `x2`."""


def isin(x1, x2, assume_unique=False, invert=False):
    """Element-wise test of whether each `x1` value occurs in `x2`."""


def kron(x1, x2):
    """The Kronecker product of `x1` and `x2`."""


def matmul(x1, x2):
    """The matrix product of `x1` and `x2`, batching over leading axes."""


def moveaxis(x, source, destination):
    """`x` with axes `source` moved to positions `destination`."""


def ndim(x):
    """The number of axes of `x`."""


def nonzero(x):
    """A tuple of int32 index tensors, one per axis, of the non-zero elements."""


def outer(x1, x2):
    """The outer product of the flattened `x1` and `x2`."""


def pad(x, pad_width, mode="constant", constant_values=None):
    """`x` padded by `pad_width` per axis (constant, reflect or symmetric)."""


def ravel(x):
    """`x` flattened to 1-D."""


def rearrange(tensor, pattern, **axes_lengths):
    """`tensor` reshaped and transposed by an einops-style `pattern`."""


def repeat(x, repeats, axis=None):
    """Each element of `x` repeated `repeats` times along `axis` (flattened if None)."""


def reshape(x, newshape):
    """`x` with a new shape `newshape` (one entry may be -1)."""


def roll(x, shift, axis=None):
    """`x` rotated by `shift` positions along `axis` (flattened if None)."""


def rot90(array, k=1, axes=(0, 1)):
    """`array` rotated by `k` quarter turns in the plane of `axes`."""


def searchsorted(sorted_sequence, values, side="left"):
    """int32 insertion indices of `values` into the 1-D `sorted_sequence`."""


def size(x):
    """The number of elements of `x`."""


def slogdet(x):
    """The sign and natural log of the absolute determinant of each matrix."""


def sort(x, axis=-1):
    """`x` sorted ascending along `axis` (flattened if None)."""


def split(x, indices_or_sections, axis=0):
    """`x` split along `axis` into equal sections or at the given indices."""


def squeeze(x, axis=None):
    """`x` with size-1 axes removed (only `axis` if given)."""


def stack(x, axis=0):
    """The tensors `x` joined along a new `axis`."""


def swapaxes(x, axis1, axis2):
    """`x` with `axis1` and `axis2` interchanged."""


def take(x, indices, axis=None):
    """Elements of `x` at `indices` along `axis` (of the flattened `x` if None)."""


def take_along_axis(x, indices, axis=None):
    """Elements of `x` picked along `axis` by matching-shape `indices`."""


def tensordot(x1, x2, axes=2):
    """The sum-product of `x1` and `x2` over `axes` (a count or two axis lists)."""


def tile(x, repeats):
    """`x` repeated `repeats` times per axis."""


def transpose(x, axes=None):
    """`x` with its axes permuted by `axes` (reversed if None)."""


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


def vectorize(pyfunc, *, excluded=None, signature=None):
    """`pyfunc` turned into a function mapped over its inputs' elements or core dims."""


def view(x, dtype=None):
    """`x` with its bytes reinterpreted as `dtype`."""


def vsplit(x, indices_or_sections):
    """`x` split along axis 0."""


def vstack(xs):
    """The tensors `xs` joined along axis 0 (1-D inputs become rows)."""
