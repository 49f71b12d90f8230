"""NumPy-style ops on whole arrays: shape, joins and splits, flips and rolls, padding."""


def append(x1, x2, axis=None):
    """`x2` appended to `x1` along `axis` (both flattened if None)."""


def array_split(x, indices_or_sections, axis=0):
    """`x` split along `axis` into sections (which may differ in size by one)."""


def broadcast_to(x, shape):
    """`x` broadcast to `shape`."""


def concatenate(xs, axis=0):
    """The tensors `xs` joined along existing `axis`.

    Unlike `stack`, no axis is added: the result has the rank of the inputs.

    Args:
        xs: a list or tuple of tensors of one rank whose shapes agree on every axis but `axis`.
            Their dtypes promote to one result dtype (int32 and float32 give float32).
        axis: int, the axis to join along; default 0. None flattens every tensor first and
            joins them into one 1-D tensor.

    Returns:
        A tensor of the promoted dtype, of the inputs' shape except along `axis`, where its size
        is the sum of theirs.

    Examples:
        >>> a = np.array([[1, 2]], "int32")
        >>> b = np.array([[3, 4], [5, 6]], "int32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.concatenate([a, b])))
        [[1 2]
         [3 4]
         [5 6]]
        >>> c = tripod.ops.concatenate([a, np.array([[0.5]], "float32")], axis=1)
        >>> tripod.ops.convert_to_numpy(c)
        array([[1. , 2. , 0.5]], dtype=float32)
    """


def diff(a, n=1, axis=-1):
    """The `n`-th discrete difference along `axis`."""


def dsplit(x, indices_or_sections):
    """`x` split along its third axis."""


def dstack(xs):
    """The tensors `xs` stacked along the third axis (1-D and 2-D inputs promoted first)."""


def expand_dims(x, axis):
    """`x` with a size-1 axis inserted at `axis` (an int or a tuple).

    Args:
        x: tensor to expand.
        axis: int or tuple of ints, the position(s) of the new axes in the result; a negative
            position counts from the end of the result (-1 appends an axis).

    Returns:
        A tensor with the values and dtype of `x` and `len(axis)` more axes (one for an int),
        each of size 1.

    Examples:
        >>> x = np.zeros((2, 3), "float32")
        >>> tripod.ops.shape(tripod.ops.expand_dims(x, 0))
        (1, 2, 3)
        >>> tripod.ops.shape(tripod.ops.expand_dims(x, (1, -1)))
        (2, 1, 3, 1)
    """


def flip(x, axis=None):
    """`x` with the order of elements reversed along `axis` (all axes if None).

    Args:
        x: tensor to flip.
        axis: int or tuple of ints, the axes to reverse; default None, every axis.

    Returns:
        A tensor of the shape and dtype of `x`.

    Examples:
        >>> x = np.array([[1, 2], [3, 4]], "int32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.flip(x, axis=1)))
        [[2 1]
         [4 3]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.flip(x)))
        [[4 3]
         [2 1]]
    """


def fliplr(x):
    """`x` reversed along axis 1."""


def flipud(x):
    """`x` reversed along axis 0."""


def hsplit(x, indices_or_sections):
    """`x` split along axis 1 (axis 0 for 1-D `x`)."""


def hstack(xs):
    """The tensors `xs` joined along axis 1 (axis 0 for 1-D inputs)."""


def moveaxis(x, source, destination):
    """`x` with axes `source` moved to positions `destination`."""


def ndim(x):
    """The number of axes of `x`."""


def pad(x, pad_width, mode="constant", constant_values=None):
    """`x` padded by `pad_width` before and after each axis (constant padding by default).

    Args:
        x: tensor to pad.
        pad_width: how much to add to each axis: a sequence of one `(before, after)` pair of
            non-negative ints per axis of `x`. A single pair, `[(before, after)]`, pads every
            axis alike.
        mode: str, what the new entries hold, as in NumPy's `pad`; default "constant", the
            value `constant_values`. The others: "edge" (the nearest edge value), "reflect"
            (a mirror image excluding the edge), "symmetric" (a mirror image including the
            edge), "wrap" (the values from the other end; "circular" is the same), "linear_ramp"
            (a straight line from the edge value down to 0), "maximum", "minimum", "mean",
            "median" (that statistic of the axis), and "empty" (zeros here; unspecified values
            in NumPy).
        constant_values: the fill value for mode "constant" (cast to `x`'s dtype); default
            None, 0. Any other mode with a value is a ValueError.

    Returns:
        A tensor of `x`'s dtype whose size along each axis is its size in `x` plus `before +
        after`.

    Raises:
        ValueError: an unknown `mode`, or `constant_values` with a mode other than "constant".

    Examples:
        >>> x = np.array([[1, 2], [3, 4]], "int32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.pad(x, [(1, 0), (0, 2)])))
        [[0 0 0 0]
         [1 2 0 0]
         [3 4 0 0]]
        >>> y = tripod.ops.pad(np.array([1, 2, 3], "int32"), [(2, 2)], mode="reflect")
        >>> print(tripod.ops.convert_to_numpy(y))
        [3 2 1 2 3 2 1]
    """


def ravel(x):
    """`x` flattened to 1-D."""


def rearrange(tensor, pattern, **axes_lengths):
    """`tensor` reshaped and transposed by an einops-style `pattern`."""


def repeat(x, repeats, axis=None):
    """Each element of `x` repeated `repeats` times along `axis` (flattened if None).

    Copies sit next to their original (`[1, 2]` gives `[1, 1, 2, 2]`); `tile` repeats the
    whole tensor instead.

    Args:
        x: tensor whose elements to repeat.
        repeats: int, the number of copies of every element; or a 1-D sequence of ints, one
            count per element along `axis`.
        axis: int, the axis to repeat along; default None, which flattens `x` first.

    Returns:
        A tensor of `x`'s dtype and shape, except along `axis`, where its size is the total
        number of copies (1-D when `axis` is None).

    Examples:
        >>> x = np.array([[1, 2], [3, 4]], "int32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.repeat(x, 2)))
        [1 1 2 2 3 3 4 4]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.repeat(x, [1, 2], axis=0)))
        [[1 2]
         [3 4]
         [3 4]]
    """


def reshape(x, newshape):
    """`x` with a new shape `newshape` (one entry may be -1).

    The elements keep their row-major order (the last axis varies fastest), only their
    grouping into axes changes.

    Args:
        x: tensor to reshape.
        newshape: int or tuple of ints, the new shape, holding as many elements as `x`. One
            entry may be -1: that axis takes whatever size the element count leaves for it.

    Returns:
        A tensor of shape `newshape` with the values and dtype of `x`.

    Raises:
        ValueError: `newshape` does not hold `x`'s number of elements (a TypeError on jax).

    Examples:
        >>> x = np.arange(6, dtype="int32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.reshape(x, (2, 3))))
        [[0 1 2]
         [3 4 5]]
        >>> tripod.ops.shape(tripod.ops.reshape(x, (-1, 2)))
        (3, 2)
    """


def roll(x, shift, axis=None):
    """`x` rotated by `shift` positions along `axis` (flattened if None).

    Elements pushed past the end come back in at the start, so nothing is lost.

    Args:
        x: tensor to roll.
        shift: int, the number of places each element moves towards higher indices (negative:
            towards lower ones); or a tuple of ints, one per axis of a tuple `axis`.
        axis: int or tuple of ints, the axes to roll; default None rolls the flattened `x` and
            restores its shape.

    Returns:
        A tensor of the shape and dtype of `x`.

    Examples:
        >>> x = np.array([1, 2, 3, 4, 5], "int32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.roll(x, 2)))
        [4 5 1 2 3]
        >>> m = np.array([[1, 2, 3], [4, 5, 6]], "int32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.roll(m, -1, axis=1)))
        [[2 3 1]
         [5 6 4]]
    """


def rot90(array, k=1, axes=(0, 1)):
    """`array` rotated by `k` quarter turns in the plane of `axes`."""


def size(x):
    """The number of elements of `x`."""


def split(x, indices_or_sections, axis=0):
    """`x` split along `axis` into equal sections or at the given indices.

    Args:
        x: tensor to split.
        indices_or_sections: int `n`, the number of equal sections (it must divide the size of
            `axis`; `array_split` allows a remainder); or a sorted sequence of ints `[i, j,
            ...]`, the positions to cut at, giving `x[:i]`, `x[i:j]`, ..., `x[last:]` along
            `axis`.
        axis: int, the axis to split; default 0.

    Returns:
        A list of tensors of `x`'s rank and dtype, which `concatenate(parts, axis)` joins back
        into `x`.

    Raises:
        ValueError: an int `indices_or_sections` does not divide the size of `axis`.

    Examples:
        >>> x = np.arange(6, dtype="int32")
        >>> [tripod.ops.convert_to_numpy(p).tolist() for p in tripod.ops.split(x, 3)]
        [[0, 1], [2, 3], [4, 5]]
        >>> [tripod.ops.convert_to_numpy(p).tolist() for p in tripod.ops.split(x, [1, 4])]
        [[0], [1, 2, 3], [4, 5]]
    """


def squeeze(x, axis=None):
    """`x` with size-1 axes removed (only `axis` if given).

    Args:
        x: tensor to squeeze.
        axis: int or tuple of ints, the axes to remove, each of size 1; default None removes
            every size-1 axis.

    Returns:
        A tensor with the values and dtype of `x` and the remaining axes.

    Raises:
        ValueError: an axis in `axis` does not have size 1.

    Examples:
        >>> x = np.zeros((1, 3, 1), "float32")
        >>> tripod.ops.shape(tripod.ops.squeeze(x))
        (3,)
        >>> tripod.ops.shape(tripod.ops.squeeze(x, axis=0))
        (3, 1)
    """


def stack(x, axis=0):
    """The tensors `x` joined along a new `axis`.

    Unlike `concatenate`, stacking adds an axis: `n` tensors of shape `s` give one tensor with an
    axis of size `n` at `axis`.

    Args:
        x: a list or tuple of tensors of one shape; their dtypes promote to one result dtype.
        axis: int, the position of the new axis in the result; default 0. -1 puts it last.

    Returns:
        A tensor of the promoted dtype, of rank one more than the inputs, with `len(x)` at
        position `axis` of its shape.

    Examples:
        >>> a = np.array([1, 2], "int32")
        >>> b = np.array([3, 4], "int32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.stack([a, b])))
        [[1 2]
         [3 4]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.stack([a, b], axis=1)))
        [[1 3]
         [2 4]]
    """


def swapaxes(x, axis1, axis2):
    """`x` with `axis1` and `axis2` interchanged."""


def tile(x, repeats):
    """`x` repeated `repeats` times per axis.

    The whole tensor is copied end to end (`[1, 2]` gives `[1, 2, 1, 2]`); `repeat` repeats
    each element in place instead.

    Args:
        x: tensor to tile.
        repeats: int, or sequence of ints, the number of copies along each axis. When it has
            fewer entries than `x` has axes, it applies to the last axes (the others get 1);
            when it has more, `x` gains leading size-1 axes first.

    Returns:
        A tensor of `x`'s dtype whose size along each axis is `x`'s size times its count.

    Examples:
        >>> x = np.array([[1, 2]], "int32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.tile(x, 2)))
        [[1 2 1 2]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.tile(x, (2, 1))))
        [[1 2]
         [1 2]]
    """


def transpose(x, axes=None):
    """`x` with its axes permuted by `axes` (reversed if None).

    Args:
        x: tensor to transpose.
        axes: sequence of ints, a permutation of `range(rank)`: axis `i` of the result is axis
            `axes[i]` of `x`. Default None reverses the axes (a matrix transpose for 2-D `x`).

    Returns:
        A tensor of `x`'s dtype, of shape `tuple(x.shape[a] for a in axes)`.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.transpose([[1, 2, 3], [4, 5, 6]])))
        [[1 4]
         [2 5]
         [3 6]]
        >>> tripod.ops.shape(tripod.ops.transpose(np.zeros((2, 3, 4)), (0, 2, 1)))
        (2, 4, 3)
    """


def vectorize(pyfunc, *, excluded=None, signature=None):
    """`pyfunc` turned into a function mapped over its inputs' elements or core dims."""


def view(x, dtype=None):
    """`x` with its bytes reinterpreted as `dtype`."""


def vsplit(x, indices_or_sections):
    """`x` split along axis 0."""


def vstack(xs):
    """The tensors `xs` joined along axis 0 (1-D inputs become rows)."""
