"""NumPy-style ops that make arrays: filled, ranges, grids, identity and triangular, windows."""


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in [start, stop) with `step`.

    Args:
        start: a number (a Python scalar or a 0-d tensor), the first value; when `stop` is None,
            the end of the range instead, which then starts at 0.
        stop: the end of the range, itself left out; default None (see `start`).
        step: the difference between consecutive values, non-zero and possibly negative; default
            None, meaning 1.
        dtype: the result's dtype, e.g. `"int32"`; None (default) promotes those of `start`,
            `stop` and `step`: `int32` for Python ints, `floatx()` (`float32` by default) once
            one of them is a Python float.

    Returns:
        A 1-D tensor of the `ceil((stop - start) / step)` values `start`, `start + step`, ...
        (empty when that count is not positive). With a float `step`, rounding can make that
        count one more than expected; `linspace` gives an exact count.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.arange(5)))
        [0 1 2 3 4]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.arange(1.0, 2.0, 0.25)))
        [1.   1.25 1.5  1.75]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.arange(5, 0, -2)))
        [5 3 1]
    """


def array(x, dtype=None):
    """A tensor holding `x`, as `dtype` if given."""


def bartlett(x):
    """The Bartlett (triangular) window of `x` points."""


def blackman(x):
    """The Blackman window of `x` points."""


def diag(x, k=0):
    """The `k`-th diagonal of a 2-D `x`, or a 2-D tensor with 1-D `x` on that diagonal."""


def diagflat(x, k=0):
    """A 2-D tensor with the flattened `x` on its `k`-th diagonal."""


def empty(shape, dtype=None):
    """A tensor of `shape` whose values are unspecified (not initialized)."""


def empty_like(x, dtype=None):
    """A tensor shaped like `x` whose values are unspecified (not initialized)."""


def eye(N, M=None, k=0, dtype=None):
    """An `N` x `M` matrix with ones on the `k`-th diagonal.

    Args:
        N: int, the number of rows.
        M: int, the number of columns; None (default) means `N`, a square matrix.
        k: int, the diagonal holding the ones: 0 (default) the main diagonal, a positive `k` one
            above it (starting at column `k`), a negative `k` one below it.
        dtype: the result's dtype, e.g. `"int32"`; None (default) means `floatx()`, `float32` by
            default.

    Returns:
        A tensor of shape `(N, M)` with 1 where `column - row == k` and 0 elsewhere.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.eye(2)))
        [[1. 0.]
         [0. 1.]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.eye(2, 3, k=1, dtype="int32")))
        [[0 1 0]
         [0 0 1]]
    """


def full(shape, fill_value, dtype=None):
    """A tensor of `shape` filled with `fill_value`.

    Args:
        shape: an int or a tuple or list of ints, the result's shape.
        fill_value: a scalar, or a tensor (NumPy array, nested list) that broadcasts to `shape`,
            repeated to fill it.
        dtype: the result's dtype, e.g. `"int32"`; None (default) means `floatx()` (`float32` by
            default), whatever the dtype of `fill_value`.

    Returns:
        A tensor of shape `shape` and dtype `dtype` holding `fill_value` cast to `dtype`.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.full((2, 3), 7)))
        [[7. 7. 7.]
         [7. 7. 7.]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.full((2, 3), [1, 2, 3], dtype="int32")))
        [[1 2 3]
         [1 2 3]]
    """


def full_like(x, fill_value, dtype=None):
    """A tensor shaped like `x` filled with `fill_value`."""


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """`num` values spaced evenly on a log scale from `start` to `stop`."""


def hamming(x):
    """The Hamming window of `x` points."""


def hanning(x):
    """The Hann window of `x` points."""


def identity(n, dtype=None):
    """The `n` x `n` identity matrix."""


def kaiser(x, beta):
    """The Kaiser window of `x` points with shape parameter `beta`."""


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """`num` evenly spaced values from `start` to `stop` (and the step if `retstep`).

    Args:
        start: the first value: a scalar, or a tensor for one sequence per element.
        stop: the last value (or the end left out, see `endpoint`): a scalar, or a tensor that
            broadcasts against `start`.
        num: int, the number of values; default 50.
        endpoint: bool (default True): end at `stop` exactly, spacing the values
            `(stop - start) / (num - 1)` apart; when False, leave `stop` out, spacing them
            `(stop - start) / num` apart.
        retstep: bool (default False): also return the spacing.
        dtype: the samples' dtype, e.g. `"float64"`; None (default) is the float dtype promoted
            from `start` and `stop` (`floatx()`, `float32` by default, for Python numbers). An
            integer dtype rounds the samples down.
        axis: int, where the new axis of samples goes in the result when `start` or `stop` is a
            tensor; default 0.

    Returns:
        A tensor of shape `(num,)` for scalar `start` and `stop`; for tensors, their broadcast
        shape with an axis of length `num` inserted at `axis`. With `retstep`, a tuple
        `(samples, step)`, `step` the spacing in the promoted float dtype.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.linspace(0, 1, 5)))
        [0.   0.25 0.5  0.75 1.  ]
        >>> samples, step = tripod.ops.linspace(0, 1, 4, endpoint=False, retstep=True)
        >>> print(tripod.ops.convert_to_numpy(samples), tripod.ops.convert_to_numpy(step))
        [0.   0.25 0.5  0.75] 0.25
    """


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """`num` values `base ** t` for t evenly spaced from `start` to `stop`."""


def meshgrid(*x, indexing="xy"):
    """Coordinate grids from 1-D tensors `x` (`xy` or `ij` indexing)."""


def ones(shape, dtype=None):
    """A tensor of `shape` filled with ones.

    Args:
        shape: an int or a tuple or list of ints, the result's shape.
        dtype: the result's dtype, e.g. `"int32"`; None (default) means `floatx()`, `float32` by
            default.

    Returns:
        A tensor of shape `shape` and dtype `dtype` whose every element is 1.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.ones((2, 3))))
        [[1. 1. 1.]
         [1. 1. 1.]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.ones(3, dtype="int32")))
        [1 1 1]
    """


def ones_like(x, dtype=None):
    """A tensor shaped like `x` filled with ones.

    Args:
        x: a tensor, or a NumPy array or nested list, whose shape (and, by default, dtype) the
            result takes; its values are not read.
        dtype: the result's dtype, e.g. `"float32"`; None (default) means `x`'s dtype.

    Returns:
        A tensor of `x`'s shape and dtype `dtype` (else `x`'s) whose every element is 1.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.ones_like([[5, 6], [7, 8]])))
        [[1 1]
         [1 1]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.ones_like([5, 6, 7], dtype="bool")))
        [ True  True  True]
    """


def tri(N, M=None, k=0, dtype=None):
    """An `N` x `M` matrix with ones at and below the `k`-th diagonal."""


def tril(x, k=0):
    """`x` with the elements above the `k`-th diagonal zeroed.

    Args:
        x: a tensor of at least 2 dimensions; its last two axes hold the matrices (rows and
            columns), and any leading axes are a batch of them.
        k: int, the last diagonal kept: 0 (default) the main diagonal, a positive `k` keeps `k`
            more diagonals above it, a negative `k` zeroes the main diagonal and the `-k - 1`
            nearest below it as well.

    Returns:
        A tensor of `x`'s shape and dtype: `x` where `column - row <= k`, 0 elsewhere.

    Examples:
        >>> x = np.arange(1, 10, dtype="int32").reshape(3, 3)
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.tril(x)))
        [[1 0 0]
         [4 5 0]
         [7 8 9]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.tril(x, k=-1)))
        [[0 0 0]
         [4 0 0]
         [7 8 0]]
    """


def triu(x, k=0):
    """`x` with the elements below the `k`-th diagonal zeroed.

    Args:
        x: a tensor of at least 2 dimensions; its last two axes hold the matrices (rows and
            columns), and any leading axes are a batch of them.
        k: int, the first diagonal kept: 0 (default) the main diagonal, a negative `k` keeps
            `-k` more diagonals below it, a positive `k` zeroes the main diagonal and the `k - 1`
            nearest above it as well.

    Returns:
        A tensor of `x`'s shape and dtype: `x` where `column - row >= k`, 0 elsewhere.

    Examples:
        >>> x = np.arange(1, 10, dtype="int32").reshape(3, 3)
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.triu(x)))
        [[1 2 3]
         [0 5 6]
         [0 0 9]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.triu(x, k=1)))
        [[0 2 3]
         [0 0 6]
         [0 0 0]]
    """


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of 1-D `x` with `N` columns of powers."""


def zeros(shape, dtype=None):
    """A tensor of `shape` filled with zeros.

    Args:
        shape: an int or a tuple or list of ints, the result's shape.
        dtype: the result's dtype, e.g. `"int32"`; None (default) means `floatx()`, `float32` by
            default.

    Returns:
        A tensor of shape `shape` and dtype `dtype` whose every element is 0.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.zeros((2, 3))))
        [[0. 0. 0.]
         [0. 0. 0.]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.zeros(3, dtype="int32")))
        [0 0 0]
    """


def zeros_like(x, dtype=None):
    """A tensor shaped like `x` filled with zeros.

    Args:
        x: a tensor, or a NumPy array or nested list, whose shape (and, by default, dtype) the
            result takes; its values are not read.
        dtype: the result's dtype, e.g. `"float32"`; None (default) means `x`'s dtype.

    Returns:
        A tensor of `x`'s shape and dtype `dtype` (else `x`'s) whose every element is 0.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.zeros_like([[5, 6], [7, 8]])))
        [[0 0]
         [0 0]]
        >>> zeros = tripod.ops.zeros_like(np.ones((2,), dtype="float16"))
        >>> print(tripod.ops.convert_to_numpy(zeros), tripod.ops.dtype(zeros))
        [0. 0.] float16
    """
