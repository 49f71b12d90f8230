"""NumPy-style array ops."""


def abs(x):
    """Element-wise absolute value (modulus for complex `x`)."""


def absolute(x):
    """Element-wise absolute value; the same as `abs`."""


def add(x1, x2):
    """Element-wise sum of `x1` and `x2`, broadcasting."""


def all(x, axis=None, keepdims=False):
    """Whether every element is true over `axis` (all axes if None)."""


def allclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element of `x1` is within `atol + rtol * |x2|` of `x2`."""


def amax(x, axis=None, keepdims=False):
    """The maximum over `axis` (all axes if None)."""


def amin(x, axis=None, keepdims=False):
    """The minimum over `axis` (all axes if None)."""


def angle(x):
    """Element-wise argument (phase angle) in radians of complex `x`."""


def any(x, axis=None, keepdims=False):
    """Whether any element is true over `axis` (all axes if None)."""


def append(x1, x2, axis=None):
    """`x2` appended to `x1` along `axis` (both flattened if None)."""


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in [start, stop) with `step`."""


def arccos(x):
    """Element-wise inverse cosine."""


def arccosh(x):
    """Element-wise inverse hyperbolic cosine."""


def arcsin(x):
    """Element-wise inverse sine."""


def arcsinh(x):
    """Element-wise inverse hyperbolic sine."""


def arctan(x):
    """Element-wise inverse tangent."""


def arctan2(x1, x2):
    """Element-wise angle of the point (x2, x1): the quadrant-aware `arctan(x1 / x2)`."""


def arctanh(x):
    """Element-wise inverse hyperbolic tangent."""


def argmax(x, axis=None, keepdims=False):
    """int32 indices of the maxima over `axis` (of the flattened `x` if None)."""


def argmin(x, axis=None, keepdims=False):
    """int32 indices of the minima over `axis` (of the flattened `x` if None)."""


def argpartition(x, kth, axis=-1):
    """int32 indices that put the `kth` element in its sorted place along `axis`."""


def argsort(x, axis=-1):
    """int32 indices that sort `x` along `axis` (of the flattened `x` if None)."""


def array(x, dtype=None):
    """A tensor holding `x`, as `dtype` if given."""


def array_split(x, indices_or_sections, axis=0):
    """`x` split along `axis` into sections (which may differ in size by one)."""


def average(x, axis=None, weights=None):
    """The mean over `axis`, weighted by `weights` if given."""


def bartlett(x):
    """The Bartlett (triangular) window of `x` points."""


def bincount(x, weights=None, minlength=0, sparse=False):
    """Counts (or summed `weights`) of each non-negative integer value in 1-D `x`."""


def bitwise_and(x, y):
    """Element-wise bitwise AND of integer or bool tensors."""


def bitwise_invert(x):
    """Element-wise bitwise NOT."""


def bitwise_left_shift(x, y):
    """Element-wise `x << y`."""


def bitwise_not(x):
    """Element-wise bitwise NOT; the same as `bitwise_invert`."""


def bitwise_or(x, y):
    """Element-wise bitwise OR of integer or bool tensors."""


def bitwise_right_shift(x, y):
    """Element-wise `x >> y`."""


def bitwise_xor(x, y):
    """Element-wise bitwise XOR of integer or bool tensors."""


def blackman(x):
    """The Blackman window of `x` points."""


def broadcast_to(x, shape):
    """`x` broadcast to `shape`."""


def cbrt(x):
    """Element-wise cube root."""


def ceil(x):
    """Element-wise ceiling, the smallest integer >= x."""


def clip(x, x_min, x_max):
    """`x` with values limited to [x_min, x_max]."""


def concatenate(xs, axis=0):
    """The tensors `xs` joined along existing `axis`."""


def conj(x):
    """Element-wise complex conjugate."""


def conjugate(x):
    """Element-wise complex conjugate; the same as `conj`."""


def copy(x):
    """A copy of `x`."""


def corrcoef(x):
    """The Pearson correlation matrix of the variables in the rows of `x`."""


def correlate(x1, x2, mode="valid"):
    """The 1-D cross-correlation of `x1` and `x2` (mode valid, same or full)."""


def cos(x):
    """Element-wise cosine."""


def cosh(x):
    """Element-wise hyperbolic cosine."""


def count_nonzero(x, axis=None):
    """The number of non-zero elements over `axis`, as int32."""


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 2- or 3-element vectors along the given axes."""


def cumprod(x, axis=None, dtype=None):
    """The cumulative product along `axis` (of the flattened `x` if None)."""


def cumsum(x, axis=None, dtype=None):
    """The cumulative sum along `axis` (of the flattened `x` if None)."""


def deg2rad(x):
    """Element-wise conversion of degrees to radians."""


def diag(x, k=0):
    """The `k`-th diagonal of a 2-D `x`, or a 2-D tensor with 1-D `x` on that diagonal."""


def diagflat(x, k=0):
    """A 2-D tensor with the flattened `x` on its `k`-th diagonal."""


def diagonal(x, offset=0, axis1=0, axis2=1):
    """The `offset` diagonals of the matrices spanned by `axis1` and `axis2`."""


def diff(a, n=1, axis=-1):
    """The `n`-th discrete difference along `axis`."""


def digitize(x, bins):
    """int32 index of the bin of `bins` each element of `x` falls in."""


def divide(x1, x2):
    """Element-wise true division `x1 / x2` (ints give floats)."""


def divide_no_nan(x1, x2):
    """Element-wise `x1 / x2`, with 0 where `x2` is 0."""


def dot(x1, x2):
    """The dot product of `x1` and `x2` (matrix product for 2-D, sum-product over last axes)."""


def dsplit(x, indices_or_sections):
    """`x` split along its third axis."""


def dstack(xs):
    """The tensors `xs` stacked along the third axis (1-D and 2-D inputs promoted first)."""


def einsum(subscripts, *operands, **kwargs):
    """The Einstein summation `subscripts` over `operands`."""


def empty(shape, dtype=None):
    """A tensor of `shape` whose values are unspecified (not initialized)."""


def empty_like(x, dtype=None):
    """A tensor shaped like `x` whose values are unspecified (not initialized)."""


def equal(x1, x2):
    """Element-wise `x1 == x2`."""


def exp(x):
    """Element-wise natural exponential."""


def exp2(x):
    """Element-wise `2 ** x`."""


def expand_dims(x, axis):
    """`x` with a size-1 axis inserted at `axis` (an int or a tuple)."""


def expm1(x):
    """Element-wise `exp(x) - 1`, accurate near 0."""


def eye(N, M=None, k=0, dtype=None):
    """An `N` x `M` matrix with ones on the `k`-th diagonal."""


def fabs(x):
    """Element-wise absolute value of real `x`."""


def flip(x, axis=None):
    """`x` with the order of elements reversed along `axis` (all axes if None)."""


def fliplr(x):
    """`x` reversed along axis 1."""


def flipud(x):
    """`x` reversed along axis 0."""


def floor(x):
    """Element-wise floor, the largest integer <= x."""


def floor_divide(x1, x2):
    """Element-wise `x1 // x2`, rounding towards minus infinity."""


def fmax(x1, x2):
    """Element-wise maximum, ignoring NaNs."""


def fmin(x1, x2):
    """Element-wise minimum, ignoring NaNs."""


def fmod(x1, x2):
    """Element-wise remainder of division with the sign of `x1` (C `fmod`)."""


def full(shape, fill_value, dtype=None):
    """A tensor of `shape` filled with `fill_value`."""


def full_like(x, fill_value, dtype=None):
    """A tensor shaped like `x` filled with `fill_value`."""


def gcd(x1, x2):
    """Element-wise greatest common divisor of integers."""


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """`num` values spaced evenly on a log scale from `start` to `stop`."""


def get_item(x, key):
    """`x[key]` for a NumPy-style index `key`."""


def greater(x1, x2):
    """Element-wise `x1 > x2`."""


def greater_equal(x1, x2):
    """Element-wise `x1 >= x2`."""


def hamming(x):
    """The Hamming window of `x` points."""


def hanning(x):
    """The Hann window of `x` points."""


def heaviside(x1, x2):
    """Element-wise step: 0 for x1 < 0, `x2` for x1 == 0, 1 for x1 > 0."""


def histogram(x, bins=10, range=None):
    """Counts of `x` in `bins` equal bins over `range`, and the bin edges."""


def hsplit(x, indices_or_sections):
    """`x` split along axis 1 (axis 0 for 1-D `x`)."""


def hstack(xs):
    """The tensors `xs` joined along axis 1 (axis 0 for 1-D inputs)."""


def hypot(x1, x2):
    """Element-wise `sqrt(x1 ** 2 + x2 ** 2)`."""


def i0(x):
    """Element-wise modified Bessel function of the first kind, order 0."""


def identity(n, dtype=None):
    """The `n` x `n` identity matrix."""


def imag(x):
    """Element-wise imaginary part."""


def inner(x1, x2):
    """The inner product: a sum-product over the last axes of `x1` and `x2`."""


def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Element-wise `|x1 - x2| <= atol + rtol * |x2|`."""


def isfinite(x):
    """Element-wise test for finite values."""


def isin(x1, x2, assume_unique=False, invert=False):
    """Element-wise test of whether each `x1` value occurs in `x2`."""


def isinf(x):
    """Element-wise test for positive or negative infinity."""


def isnan(x):
    """Element-wise test for NaN."""


def isneginf(x):
    """Element-wise test for negative infinity."""


def isposinf(x):
    """Element-wise test for positive infinity."""


def isreal(x):
    """Element-wise test for a zero imaginary part."""


def kaiser(x, beta):
    """The Kaiser window of `x` points with shape parameter `beta`."""


def kron(x1, x2):
    """The Kronecker product of `x1` and `x2`."""


def lcm(x1, x2):
    """Element-wise least common multiple of integers."""


def ldexp(x1, x2):
    """Element-wise `x1 * 2 ** x2`."""


def left_shift(x, y):
    """Element-wise `x << y`; the same as `bitwise_left_shift`."""


def less(x1, x2):
    """Element-wise `x1 < x2`."""


def less_equal(x1, x2):
    """Element-wise `x1 <= x2`."""


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """`num` evenly spaced values from `start` to `stop` (and the step if `retstep`)."""


def log(x):
    """Element-wise natural logarithm."""


def log10(x):
    """Element-wise base-10 logarithm."""


def log1p(x):
    """Element-wise `log(1 + x)`, accurate near 0."""


def log2(x):
    """Element-wise base-2 logarithm."""


def logaddexp(x1, x2):
    """Element-wise `log(exp(x1) + exp(x2))`, computed stably."""


def logaddexp2(x1, x2):
    """Element-wise `log2(2 ** x1 + 2 ** x2)`, computed stably."""


def logical_and(x1, x2):
    """Element-wise truth of `x1 and x2`."""


def logical_not(x):
    """Element-wise truth of `not x`."""


def logical_or(x1, x2):
    """Element-wise truth of `x1 or x2`."""


def logical_xor(x1, x2):
    """Element-wise truth of `x1 xor x2`."""


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """`num` values `base ** t` for t evenly spaced from `start` to `stop`."""


def matmul(x1, x2):
    """The matrix product of `x1` and `x2`, batching over leading axes."""


def max(x, axis=None, keepdims=False, initial=None):
    """The maximum over `axis` (all axes if None), at least `initial` if given."""


def maximum(x1, x2):
    """Element-wise maximum of `x1` and `x2`, broadcasting."""


def mean(x, axis=None, keepdims=False):
    """The arithmetic mean over `axis` (all axes if None); ints give float32."""


def median(x, axis=None, keepdims=False):
    """The median over `axis` (all axes if None)."""


def meshgrid(*x, indexing="xy"):
    """Coordinate grids from 1-D tensors `x` (`xy` or `ij` indexing)."""


def min(x, axis=None, keepdims=False, initial=None):
    """The minimum over `axis` (all axes if None), at most `initial` if given."""


def minimum(x1, x2):
    """Element-wise minimum of `x1` and `x2`, broadcasting."""


def mod(x1, x2):
    """Element-wise remainder of `x1 // x2`, with the sign of `x2`."""


def moveaxis(x, source, destination):
    """`x` with axes `source` moved to positions `destination`."""


def multiply(x1, x2):
    """Element-wise product of `x1` and `x2`, broadcasting."""


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """`x` with NaN, +inf and -inf replaced by finite numbers."""


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


def ndim(x):
    """The number of axes of `x`."""


def negative(x):
    """Element-wise `-x`."""


def nextafter(x1, x2):
    """Element-wise next representable float after `x1` towards `x2`."""


def nonzero(x):
    """A tuple of int32 index tensors, one per axis, of the non-zero elements."""


def not_equal(x1, x2):
    """Element-wise `x1 != x2`."""


def ones(shape, dtype=None):
    """A tensor of `shape` filled with ones."""


def ones_like(x, dtype=None):
    """A tensor shaped like `x` filled with ones."""


def outer(x1, x2):
    """The outer product of the flattened `x1` and `x2`."""


def pad(x, pad_width, mode="constant", constant_values=None):
    """`x` padded by `pad_width` per axis (constant, reflect or symmetric)."""


def percentile(x, q, axis=None, method="linear", keepdims=False):
    """The `q`-th percentiles (0-100) over `axis`."""


def power(x1, x2):
    """Element-wise `x1 ** x2`."""


def prod(x, axis=None, keepdims=False, dtype=None):
    """The product over `axis` (all axes if None)."""


def ptp(x, axis=None, keepdims=False):
    """The range `max - min` over `axis`."""


def quantile(x, q, axis=None, method="linear", keepdims=False):
    """The `q`-th quantiles (0-1) over `axis`."""


def rad2deg(x):
    """Element-wise conversion of radians to degrees."""


def ravel(x):
    """`x` flattened to 1-D."""


def real(x):
    """Element-wise real part."""


def rearrange(tensor, pattern, **axes_lengths):
    """`tensor` reshaped and transposed by an einops-style `pattern`."""


def reciprocal(x):
    """Element-wise `1 / x`."""


def repeat(x, repeats, axis=None):
    """Each element of `x` repeated `repeats` times along `axis` (flattened if None)."""


def reshape(x, newshape):
    """`x` with a new shape `newshape` (one entry may be -1)."""


def right_shift(x, y):
    """Element-wise `x >> y`; the same as `bitwise_right_shift`."""


def roll(x, shift, axis=None):
    """`x` rotated by `shift` positions along `axis` (flattened if None)."""


def rot90(array, k=1, axes=(0, 1)):
    """`array` rotated by `k` quarter turns in the plane of `axes`."""


def round(x, decimals=0):
    """Element-wise rounding to `decimals` places, halves to even."""


def searchsorted(sorted_sequence, values, side="left"):
    """int32 insertion indices of `values` into the 1-D `sorted_sequence`."""


def select(condlist, choicelist, default=0):
    """Per element, the `choicelist` entry of the first true `condlist` entry, else `default`."""


def sign(x):
    """Element-wise sign: -1, 0 or 1."""


def signbit(x):
    """Element-wise test for a set sign bit (negative numbers and -0.0)."""


def sin(x):
    """Element-wise sine."""


def sinc(x):
    """Element-wise normalized sinc `sin(pi x) / (pi x)`."""


def sinh(x):
    """Element-wise hyperbolic sine."""


def size(x):
    """The number of elements of `x`."""


def slogdet(x):
    """The sign and natural log of the absolute determinant of each matrix."""


def sort(x, axis=-1):
    """`x` sorted ascending along `axis` (flattened if None)."""


def split(x, indices_or_sections, axis=0):
    """`x` split along `axis` into equal sections or at the given indices."""


def sqrt(x):
    """Element-wise non-negative square root."""


def square(x):
    """Element-wise `x * x`."""


def squeeze(x, axis=None):
    """`x` with size-1 axes removed (only `axis` if given)."""


def stack(x, axis=0):
    """The tensors `x` joined along a new `axis`."""


def std(x, axis=None, keepdims=False):
    """The population standard deviation over `axis`."""


def subtract(x1, x2):
    """Element-wise difference `x1 - x2`, broadcasting."""


def sum(x, axis=None, keepdims=False):
    """The sum over `axis` (all axes if None)."""


def swapaxes(x, axis1, axis2):
    """`x` with `axis1` and `axis2` interchanged."""


def take(x, indices, axis=None):
    """Elements of `x` at `indices` along `axis` (of the flattened `x` if None)."""


def take_along_axis(x, indices, axis=None):
    """Elements of `x` picked along `axis` by matching-shape `indices`."""


def tan(x):
    """Element-wise tangent."""


def tanh(x):
    """Element-wise hyperbolic tangent."""


def tensordot(x1, x2, axes=2):
    """The sum-product of `x1` and `x2` over `axes` (a count or two axis lists)."""


def tile(x, repeats):
    """`x` repeated `repeats` times per axis."""


def trace(x, offset=0, axis1=0, axis2=1):
    """The sum of the `offset` diagonal of the matrices spanned by `axis1` and `axis2`."""


def transpose(x, axes=None):
    """`x` with its axes permuted by `axes` (reversed if None)."""


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of `y` along `axis` by the trapezoidal rule, at points `x` or spacing `dx`."""


def tri(N, M=None, k=0, dtype=None):
    """An `N` x `M` matrix with ones at and below the `k`-th diagonal."""


def tril(x, k=0):
    """`x` with the elements above the `k`-th diagonal zeroed."""


def triu(x, k=0):
    """`x` with the elements below the `k`-th diagonal zeroed."""


def true_divide(x1, x2):
    """Element-wise true division; the same as `divide`."""


def trunc(x):
    """Element-wise rounding towards zero."""


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


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of 1-D `x` with `N` columns of powers."""


def var(x, axis=None, keepdims=False):
    """The population variance over `axis`."""


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


def where(condition, x1=None, x2=None):
    """Per element `x1` where `condition` holds else `x2`; nonzero(condition) if both are None."""


def zeros(shape, dtype=None):
    """A tensor of `shape` filled with zeros."""


def zeros_like(x, dtype=None):
    """A tensor shaped like `x` filled with zeros."""
