"""NumPy-style reductions: sums and products, extremes, statistics, cumulative sums, counts."""


def all(x, axis=None, keepdims=False):
    """Whether every element is true over `axis` (all axes if None).

    Args:
        x: a tensor, or a NumPy array or nested list; non-bool elements count as true when
            non-zero.
        axis: None (default) to reduce over every axis, an int, or a tuple or list of ints;
            negative axes count from the end.
        keepdims: bool (default False): keep each reduced axis with length 1, so the result
            broadcasts against `x`.

    Returns:
        A bool tensor of `x`'s shape less the reduced axes (0-d when `axis` is None), or with
        them kept as length 1 under `keepdims`. Reducing over an empty axis gives true.

    Examples:
        >>> x = [[True, False], [True, True]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.all(x)))
        False
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.all(x, axis=0)))
        [ True False]
    """


def allclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element of `x1` is within `atol + rtol * |x2|` of `x2`."""


def amax(x, axis=None, keepdims=False):
    """The maximum over `axis` (all axes if None)."""


def amin(x, axis=None, keepdims=False):
    """The minimum over `axis` (all axes if None)."""


def any(x, axis=None, keepdims=False):
    """Whether any element is true over `axis` (all axes if None).

    Args:
        x: a tensor, or a NumPy array or nested list; non-bool elements count as true when
            non-zero.
        axis: None (default) to reduce over every axis, an int, or a tuple or list of ints;
            negative axes count from the end.
        keepdims: bool (default False): keep each reduced axis with length 1, so the result
            broadcasts against `x`.

    Returns:
        A bool tensor of `x`'s shape less the reduced axes (0-d when `axis` is None), or with
        them kept as length 1 under `keepdims`. Reducing over an empty axis gives false.

    Examples:
        >>> x = [[0, 0], [0, 3]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.any(x)))
        True
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.any(x, axis=1, keepdims=True)))
        [[False]
         [ True]]
    """


def argmax(x, axis=None, keepdims=False):
    """int32 indices of the maxima over `axis` (of the flattened `x` if None).

    Args:
        x: a tensor, or a NumPy array or nested list, with at least one element along `axis`.
        axis: an int, the axis to search along (negative counts from the end); None (default)
            searches the flattened `x` and gives an index into it.
        keepdims: bool (default False): keep the searched axis with length 1 (every axis, when
            `axis` is None), so the result broadcasts against `x`.

    Returns:
        An `int32` tensor of `x`'s shape without `axis` (0-d when `axis` is None), holding the
        position of the largest value; of equal largest values, the first.

    Examples:
        >>> x = [[1, 9, 3], [7, 2, 7]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.argmax(x)))
        1
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.argmax(x, axis=1)))
        [1 0]
    """


def argmin(x, axis=None, keepdims=False):
    """int32 indices of the minima over `axis` (of the flattened `x` if None).

    Args:
        x: a tensor, or a NumPy array or nested list, with at least one element along `axis`.
        axis: an int, the axis to search along (negative counts from the end); None (default)
            searches the flattened `x` and gives an index into it.
        keepdims: bool (default False): keep the searched axis with length 1 (every axis, when
            `axis` is None), so the result broadcasts against `x`.

    Returns:
        An `int32` tensor of `x`'s shape without `axis` (0-d when `axis` is None), holding the
        position of the smallest value; of equal smallest values, the first.

    Examples:
        >>> x = [[4, 1, 3], [2, 8, 2]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.argmin(x)))
        1
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.argmin(x, axis=1)))
        [1 0]
    """


def average(x, axis=None, weights=None):
    """The mean over `axis`, weighted by `weights` if given."""


def bincount(x, weights=None, minlength=0, sparse=False):
    """Counts (or summed `weights`) of each non-negative integer value in 1-D `x`."""


def corrcoef(x):
    """The Pearson correlation matrix of the variables in the rows of `x`."""


def count_nonzero(x, axis=None):
    """The number of non-zero elements over `axis`, as int32."""


def cumprod(x, axis=None, dtype=None):
    """The cumulative product along `axis` (of the flattened `x` if None), shaped as `cumsum`."""


def cumsum(x, axis=None, dtype=None):
    """The cumulative sum along `axis` (of the flattened `x` if None).

    Args:
        x: a tensor, or a NumPy array or nested list.
        axis: an int, the axis to accumulate along (negative counts from the end); None
            (default) flattens `x` first.
        dtype: the dtype to accumulate in and return, e.g. `"float32"`; None (default) keeps
            `x`'s dtype. A bool dtype, given or kept, becomes `int32`: the total counts the
            true elements, as in Keras 3 (NumPy's `dtype=bool` would give a running logical or).

    Returns:
        A tensor of `x`'s shape (1-D of `x`'s size when `axis` is None; shape `(1,)` for a 0-d
        `x`, as in NumPy) whose element `i` along `axis` is the sum of elements `0..i`. Unlike
        `sum`, narrow integers are not widened, so an `int8` running total can overflow: pass
        `dtype` to accumulate wider.

    Examples:
        >>> x = [[1, 2], [3, 4]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.cumsum(x)))
        [ 1  3  6 10]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.cumsum(x, axis=0)))
        [[1 2]
         [4 6]]
    """


def histogram(x, bins=10, range=None):
    """Counts of `x` in `bins` equal bins over `range`, and the bin edges."""


def max(x, axis=None, keepdims=False, initial=None):
    """The maximum over `axis` (all axes if None), at least `initial` if given.

    Args:
        x: a tensor, or a NumPy array or nested list.
        axis: None (default) to reduce over every axis, an int, or a tuple or list of ints;
            negative axes count from the end.
        keepdims: bool (default False): keep each reduced axis with length 1, so the result
            broadcasts against `x`.
        initial: None (default), or a scalar that takes part in every maximum: a floor on the
            result, and the answer when the reduced axes are empty.

    Returns:
        A tensor of `x`'s shape less the reduced axes (0-d when `axis` is None), or with them
        kept as length 1 under `keepdims`, in `x`'s dtype. Reducing over an empty axis without
        `initial` is an error.

    Examples:
        >>> x = [[1, 8], [5, 2]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.max(x)))
        8
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.max(x, axis=0, initial=6)))
        [6 8]
    """


def mean(x, axis=None, keepdims=False):
    """The arithmetic mean over `axis` (all axes if None); ints give float32.

    Args:
        x: a tensor, or a NumPy array or nested list.
        axis: None (default) to reduce over every axis, an int, or a tuple or list of ints;
            negative axes count from the end.
        keepdims: bool (default False): keep each reduced axis with length 1, so the result
            broadcasts against `x`.

    Returns:
        A tensor of `x`'s shape less the reduced axes (0-d when `axis` is None), or with them
        kept as length 1 under `keepdims`. A float `x` keeps its dtype (float16 and bfloat16 are
        summed in float32 and rounded once); integer and bool `x` gives `floatx()`, `float32` by
        default.

    Examples:
        >>> x = [[1, 2], [3, 4]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.mean(x)))
        2.5
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.mean(x, axis=0)))
        [2. 3.]
    """


def median(x, axis=None, keepdims=False):
    """The median over `axis` (all axes if None)."""


def min(x, axis=None, keepdims=False, initial=None):
    """The minimum over `axis` (all axes if None), at most `initial` if given.

    Args:
        x: a tensor, or a NumPy array or nested list.
        axis: None (default) to reduce over every axis, an int, or a tuple or list of ints;
            negative axes count from the end.
        keepdims: bool (default False): keep each reduced axis with length 1, so the result
            broadcasts against `x`.
        initial: None (default), or a scalar that takes part in every minimum: a ceiling on the
            result, and the answer when the reduced axes are empty.

    Returns:
        A tensor of `x`'s shape less the reduced axes (0-d when `axis` is None), or with them
        kept as length 1 under `keepdims`, in `x`'s dtype. Reducing over an empty axis without
        `initial` is an error.

    Examples:
        >>> x = [[1, 8], [5, 2]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.min(x)))
        1
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.min(x, axis=1, initial=0)))
        [0 0]
    """


def nanargmax(x, axis=None, keepdims=False):
    """int32 indices of the maxima over `axis`, ignoring NaNs."""


def nanargmin(x, axis=None, keepdims=False):
    """int32 indices of the minima over `axis`, ignoring NaNs."""


def nancumprod(x, axis=None, dtype=None):
    """The cumulative product along `axis`, NaNs counted as 1."""


def nancumsum(x, axis=None, dtype=None):
    """The cumulative sum along `axis`, NaNs counted as 0."""


def nanmax(x, axis=None, keepdims=False):
    """The maximum over `axis`, ignoring NaNs."""


def nanmean(x, axis=None, keepdims=False):
    """The mean over `axis`, ignoring NaNs."""


def nanmedian(x, axis=None, keepdims=False):
    """The median over `axis`, ignoring NaNs."""


def nanmin(x, axis=None, keepdims=False):
    """The minimum over `axis`, ignoring NaNs."""


def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    """The `q`-th percentiles (0-100) over `axis`, ignoring NaNs."""


def nanprod(x, axis=None, keepdims=False):
    """The product over `axis`, NaNs counted as 1."""


def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    """The `q`-th quantiles (0-1) over `axis`, ignoring NaNs."""


def nanstd(x, axis=None, keepdims=False):
    """The standard deviation over `axis`, ignoring NaNs."""


def nansum(x, axis=None, keepdims=False):
    """The sum over `axis`, NaNs counted as 0."""


def nanvar(x, axis=None, keepdims=False):
    """The variance over `axis`, ignoring NaNs."""


def percentile(x, q, axis=None, method="linear", keepdims=False):
    """The `q`-th percentiles (0-100) over `axis`."""


def prod(x, axis=None, keepdims=False, dtype=None):
    """The product over `axis` (all axes if None)."""


def ptp(x, axis=None, keepdims=False):
    """The range `max - min` over `axis`."""


def quantile(x, q, axis=None, method="linear", keepdims=False):
    """The `q`-th quantiles (0-1) over `axis`."""


def std(x, axis=None, keepdims=False):
    """The population standard deviation over `axis`.

    Args:
        x: a tensor, or a NumPy array or nested list.
        axis: None (default) to reduce over every axis, an int, or a tuple or list of ints;
            negative axes count from the end.
        keepdims: bool (default False): keep each reduced axis with length 1, so the result
            broadcasts against `x`.

    Returns:
        A tensor of `x`'s shape less the reduced axes (0-d when `axis` is None), or with them
        kept as length 1 under `keepdims`, holding `sqrt(var(x))`: the root mean squared
        deviation from the mean, dividing by the number of elements `N` (not `N - 1`). A float
        `x` keeps its dtype; integer and bool `x` gives `floatx()`, `float32` by default. A
        complex `x` keeps its dtype too, as in Keras 3, holding a real value (`var` as below).

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.std([2, 4, 4, 4, 5, 5, 7, 9])))
        2.0
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.std([[1.0, 3.0], [5.0, 5.0]], axis=1)))
        [1. 0.]
    """


def sum(x, axis=None, keepdims=False):
    """The sum over `axis` (all axes if None).

    Args:
        x: a tensor, or a NumPy array or nested list.
        axis: None (default) to reduce over every axis, an int, or a tuple or list of ints;
            negative axes count from the end.
        keepdims: bool (default False): keep each reduced axis with length 1, so the result
            broadcasts against `x`.

    Returns:
        A tensor of `x`'s shape less the reduced axes (0-d when `axis` is None), or with them
        kept as length 1 under `keepdims`. Narrow integers are widened to make overflow less
        likely (bool, int8 and int16 give `int32`, uint8 and uint16 give `uint32`); any other
        dtype is kept, so an `int32` sum can still overflow. The sum over an empty axis is 0.

    Examples:
        >>> x = [[1, 2], [3, 4]]
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.sum(x)))
        10
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.sum(x, axis=1, keepdims=True)))
        [[3]
         [7]]

        Summing a mask counts its true elements:

        >>> count = tripod.ops.sum([True, True, False])
        >>> print(tripod.ops.convert_to_numpy(count), tripod.ops.dtype(count))
        2 int32
    """


def trace(x, offset=0, axis1=0, axis2=1):
    """The sum of the `offset` diagonal of the matrices spanned by `axis1` and `axis2`."""


def var(x, axis=None, keepdims=False):
    """The population variance over `axis`.

    Args:
        x: a tensor, or a NumPy array or nested list.
        axis: None (default) to reduce over every axis, an int, or a tuple or list of ints;
            negative axes count from the end.
        keepdims: bool (default False): keep each reduced axis with length 1, so the result
            broadcasts against `x`.

    Returns:
        A tensor of `x`'s shape less the reduced axes (0-d when `axis` is None), or with them
        kept as length 1 under `keepdims`, holding the mean squared deviation from the mean,
        dividing by the number of elements `N` (not `N - 1`). A float `x` keeps its dtype;
        integer and bool `x` gives `floatx()`, `float32` by default. A complex `x` keeps its
        dtype too, as in Keras 3, holding the real mean of `|x - mean(x)|**2` with a zero
        imaginary part (NumPy returns that value in the matching real dtype).

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.var([1, 2, 3, 4])))
        1.25
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.var([[1.0, 3.0], [5.0, 5.0]], axis=1)))
        [1. 0.]
    """
