"""NumPy-style reductions: sums and products, extremes, statistics, cumulative sums, counts."""


def all(x, axis=None, keepdims=False):
    """Whether every element is true over `axis` (all axes if None)."""


def allclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element of `x1` is within `atol + rtol * |x2|` of `x2`."""


def amax(x, axis=None, keepdims=False):
    """The maximum over `axis` (all axes if None)."""


def amin(x, axis=None, keepdims=False):
    """The minimum over `axis` (all axes if None)."""


def any(x, axis=None, keepdims=False):
    """Whether any element is true over `axis` (all axes if None)."""


def argmax(x, axis=None, keepdims=False):
    """int32 indices of the maxima over `axis` (of the flattened `x` if None)."""


def argmin(x, axis=None, keepdims=False):
    """int32 indices of the minima over `axis` (of the flattened `x` if None)."""


def average(x, axis=None, weights=None):
    """The mean over `axis`, weighted by `weights` if given."""


def bincount(x, weights=None, minlength=0, sparse=False):
    """Counts (or summed `weights`) of each non-negative integer value in 1-D `x`."""


def corrcoef(x):
    """The Pearson correlation matrix of the variables in the rows of `x`."""


def count_nonzero(x, axis=None):
    """The number of non-zero elements over `axis`, as int32."""


def cumprod(x, axis=None, dtype=None):
    """The cumulative product along `axis` (of the flattened `x` if None)."""


def cumsum(x, axis=None, dtype=None):
    """The cumulative sum along `axis` (of the flattened `x` if None)."""


def histogram(x, bins=10, range=None):
    """Counts of `x` in `bins` equal bins over `range`, and the bin edges."""


def max(x, axis=None, keepdims=False, initial=None):
    """The maximum over `axis` (all axes if None), at least `initial` if given."""


def mean(x, axis=None, keepdims=False):
    """The arithmetic mean over `axis` (all axes if None); ints give float32."""


def median(x, axis=None, keepdims=False):
    """The median over `axis` (all axes if None)."""


def min(x, axis=None, keepdims=False, initial=None):
    """The minimum over `axis` (all axes if None), at most `initial` if given."""


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
    """The population standard deviation over `axis`."""


def sum(x, axis=None, keepdims=False):
    """The sum over `axis` (all axes if None)."""


def trace(x, offset=0, axis1=0, axis2=1):
    """The sum of the `offset` diagonal of the matrices spanned by `axis1` and `axis2`."""


def var(x, axis=None, keepdims=False):
    """The population variance over `axis`."""
