"""NumPy-style array ops."""

# ruff: noqa: A001, A002


def abs(x):
    """DOC"""


def absolute(x):
    """DOC"""


def add(x1, x2):
    """DOC"""


def all(x, axis=None, keepdims=False):
    """DOC"""


def allclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """DOC"""


def amax(x, axis=None, keepdims=False):
    """DOC"""


def amin(x, axis=None, keepdims=False):
    """DOC"""


def angle(x):
    """DOC"""


def any(x, axis=None, keepdims=False):
    """DOC"""


def append(x1, x2, axis=None):
    """DOC"""


def arange(start, stop=None, step=None, dtype=None):
    """DOC"""


def arccos(x):
    """DOC"""


def arccosh(x):
    """DOC"""


def arcsin(x):
    """DOC"""


def arcsinh(x):
    """DOC"""


def arctan(x):
    """DOC"""


def arctan2(x1, x2):
    """DOC"""


def arctanh(x):
    """DOC"""


def argmax(x, axis=None, keepdims=False):
    """DOC"""


def argmin(x, axis=None, keepdims=False):
    """DOC"""


def argpartition(x, kth, axis=-1):
    """DOC"""


def argsort(x, axis=-1):
    """DOC"""


def array(x, dtype=None):
    """DOC"""


def array_split(x, indices_or_sections, axis=0):
    """DOC"""


def average(x, axis=None, weights=None):
    """DOC"""


def bartlett(x):
    """DOC"""


def bincount(x, weights=None, minlength=0, sparse=False):
    """DOC"""


def bitwise_and(x, y):
    """DOC"""


def bitwise_invert(x):
    """DOC"""


def bitwise_left_shift(x, y):
    """DOC"""


def bitwise_not(x):
    """DOC"""


def bitwise_or(x, y):
    """DOC"""


def bitwise_right_shift(x, y):
    """DOC"""


def bitwise_xor(x, y):
    """DOC"""


def blackman(x):
    """DOC"""


def broadcast_to(x, shape):
    """DOC"""


def cbrt(x):
    """DOC"""


def ceil(x):
    """DOC"""


def clip(x, x_min, x_max):
    """DOC"""


def concatenate(xs, axis=0):
    """DOC"""


def conj(x):
    """DOC"""


def conjugate(x):
    """DOC"""


def copy(x):
    """DOC"""


def corrcoef(x):
    """DOC"""


def correlate(x1, x2, mode='valid'):
    """DOC"""


def cos(x):
    """DOC"""


def cosh(x):
    """DOC"""


def count_nonzero(x, axis=None):
    """DOC"""


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """DOC"""


def cumprod(x, axis=None, dtype=None):
    """DOC"""


def cumsum(x, axis=None, dtype=None):
    """DOC"""


def deg2rad(x):
    """DOC"""


def diag(x, k=0):
    """DOC"""


def diagflat(x, k=0):
    """DOC"""


def diagonal(x, offset=0, axis1=0, axis2=1):
    """DOC"""


def diff(a, n=1, axis=-1):
    """DOC"""


def digitize(x, bins):
    """DOC"""


def divide(x1, x2):
    """DOC"""


def divide_no_nan(x1, x2):
    """DOC"""


def dot(x1, x2):
    """DOC"""


def dsplit(x, indices_or_sections):
    """DOC"""


def dstack(xs):
    """DOC"""


def einsum(subscripts, *operands, **kwargs):
    """DOC"""


def empty(shape, dtype=None):
    """DOC"""


def empty_like(x, dtype=None):
    """DOC"""


def equal(x1, x2):
    """DOC"""


def exp(x):
    """DOC"""


def exp2(x):
    """DOC"""


def expand_dims(x, axis):
    """DOC"""


def expm1(x):
    """DOC"""


def eye(N, M=None, k=0, dtype=None):
    """DOC"""


def fabs(x):
    """DOC"""


def flip(x, axis=None):
    """DOC"""


def fliplr(x):
    """DOC"""


def flipud(x):
    """DOC"""


def floor(x):
    """DOC"""


def floor_divide(x1, x2):
    """DOC"""


def fmax(x1, x2):
    """DOC"""


def fmin(x1, x2):
    """DOC"""


def fmod(x1, x2):
    """DOC"""


def full(shape, fill_value, dtype=None):
    """DOC"""


def full_like(x, fill_value, dtype=None):
    """DOC"""


def gcd(x1, x2):
    """DOC"""


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """DOC"""


def get_item(x, key):
    """DOC"""


def greater(x1, x2):
    """DOC"""


def greater_equal(x1, x2):
    """DOC"""


def hamming(x):
    """DOC"""


def hanning(x):
    """DOC"""


def heaviside(x1, x2):
    """DOC"""


def histogram(x, bins=10, range=None):
    """DOC"""


def hsplit(x, indices_or_sections):
    """DOC"""


def hstack(xs):
    """DOC"""


def hypot(x1, x2):
    """DOC"""


def i0(x):
    """DOC"""


def identity(n, dtype=None):
    """DOC"""


def imag(x):
    """DOC"""


def inner(x1, x2):
    """DOC"""


def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """DOC"""


def isfinite(x):
    """DOC"""


def isin(x1, x2, assume_unique=False, invert=False):
    """DOC"""


def isinf(x):
    """DOC"""


def isnan(x):
    """DOC"""


def isneginf(x):
    """DOC"""


def isposinf(x):
    """DOC"""


def isreal(x):
    """DOC"""


def kaiser(x, beta):
    """DOC"""


def kron(x1, x2):
    """DOC"""


def lcm(x1, x2):
    """DOC"""


def ldexp(x1, x2):
    """DOC"""


def left_shift(x, y):
    """DOC"""


def less(x1, x2):
    """DOC"""


def less_equal(x1, x2):
    """DOC"""


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """DOC"""


def log(x):
    """DOC"""


def log10(x):
    """DOC"""


def log1p(x):
    """DOC"""


def log2(x):
    """DOC"""


def logaddexp(x1, x2):
    """DOC"""


def logaddexp2(x1, x2):
    """DOC"""


def logical_and(x1, x2):
    """DOC"""


def logical_not(x):
    """DOC"""


def logical_or(x1, x2):
    """DOC"""


def logical_xor(x1, x2):
    """DOC"""


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """DOC"""


def matmul(x1, x2):
    """DOC"""


def max(x, axis=None, keepdims=False, initial=None):
    """DOC"""


def maximum(x1, x2):
    """DOC"""


def mean(x, axis=None, keepdims=False):
    """DOC"""


def median(x, axis=None, keepdims=False):
    """DOC"""


def meshgrid(*x, indexing='xy'):
    """DOC"""


def min(x, axis=None, keepdims=False, initial=None):
    """DOC"""


def minimum(x1, x2):
    """DOC"""


def mod(x1, x2):
    """DOC"""


def moveaxis(x, source, destination):
    """DOC"""


def multiply(x1, x2):
    """DOC"""


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """DOC"""


def nanargmax(x, axis=None, keepdims=False):
    """DOC"""


def nanargmin(x, axis=None, keepdims=False):
    """DOC"""


def nancumprod(x, axis=None, dtype=None):
    """DOC"""


def nancumsum(x, axis=None, dtype=None):
    """DOC"""


def nanmax(x, axis=None, keepdims=False):
    """DOC"""


def nanmean(x, axis=None, keepdims=False):
    """DOC"""


def nanmedian(x, axis=None, keepdims=False):
    """DOC"""


def nanmin(x, axis=None, keepdims=False):
    """DOC"""


def nanpercentile(x, q, axis=None, method='linear', keepdims=False):
    """DOC"""


def nanprod(x, axis=None, keepdims=False):
    """DOC"""


def nanquantile(x, q, axis=None, method='linear', keepdims=False):
    """DOC"""


def nanstd(x, axis=None, keepdims=False):
    """DOC"""


def nansum(x, axis=None, keepdims=False):
    """DOC"""


def nanvar(x, axis=None, keepdims=False):
    """DOC"""


def ndim(x):
    """DOC"""


def negative(x):
    """DOC"""


def nextafter(x1, x2):
    """DOC"""


def nonzero(x):
    """DOC"""


def not_equal(x1, x2):
    """DOC"""


def ones(shape, dtype=None):
    """DOC"""


def ones_like(x, dtype=None):
    """DOC"""


def outer(x1, x2):
    """DOC"""


def pad(x, pad_width, mode='constant', constant_values=None):
    """DOC"""


def percentile(x, q, axis=None, method='linear', keepdims=False):
    """DOC"""


def power(x1, x2):
    """DOC"""


def prod(x, axis=None, keepdims=False, dtype=None):
    """DOC"""


def ptp(x, axis=None, keepdims=False):
    """DOC"""


def quantile(x, q, axis=None, method='linear', keepdims=False):
    """DOC"""


def rad2deg(x):
    """DOC"""


def ravel(x):
    """DOC"""


def real(x):
    """DOC"""


def rearrange(tensor, pattern, **axes_lengths):
    """DOC"""


def reciprocal(x):
    """DOC"""


def repeat(x, repeats, axis=None):
    """DOC"""


def reshape(x, newshape):
    """DOC"""


def right_shift(x, y):
    """DOC"""


def roll(x, shift, axis=None):
    """DOC"""


def rot90(array, k=1, axes=(0, 1)):
    """DOC"""


def round(x, decimals=0):
    """DOC"""


def searchsorted(sorted_sequence, values, side='left'):
    """DOC"""


def select(condlist, choicelist, default=0):
    """DOC"""


def sign(x):
    """DOC"""


def signbit(x):
    """DOC"""


def sin(x):
    """DOC"""


def sinc(x):
    """DOC"""


def sinh(x):
    """DOC"""


def size(x):
    """DOC"""


def slogdet(x):
    """DOC"""


def sort(x, axis=-1):
    """DOC"""


def split(x, indices_or_sections, axis=0):
    """DOC"""


def sqrt(x):
    """DOC"""


def square(x):
    """DOC"""


def squeeze(x, axis=None):
    """DOC"""


def stack(x, axis=0):
    """DOC"""


def std(x, axis=None, keepdims=False):
    """DOC"""


def subtract(x1, x2):
    """DOC"""


def sum(x, axis=None, keepdims=False):
    """DOC"""


def swapaxes(x, axis1, axis2):
    """DOC"""


def take(x, indices, axis=None):
    """DOC"""


def take_along_axis(x, indices, axis=None):
    """DOC"""


def tan(x):
    """DOC"""


def tanh(x):
    """DOC"""


def tensordot(x1, x2, axes=2):
    """DOC"""


def tile(x, repeats):
    """DOC"""


def trace(x, offset=0, axis1=0, axis2=1):
    """DOC"""


def transpose(x, axes=None):
    """DOC"""


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """DOC"""


def tri(N, M=None, k=0, dtype=None):
    """DOC"""


def tril(x, k=0):
    """DOC"""


def triu(x, k=0):
    """DOC"""


def true_divide(x1, x2):
    """DOC"""


def trunc(x):
    """DOC"""


def unique(x, sorted=True, return_index=False, return_inverse=False, return_counts=False, axis=None, size=None, fill_value=None):
    """DOC"""


def unravel_index(indices, shape):
    """DOC"""


def vander(x, N=None, increasing=False):
    """DOC"""


def var(x, axis=None, keepdims=False):
    """DOC"""


def vdot(x1, x2):
    """DOC"""


def vectorize(pyfunc, *, excluded=None, signature=None):
    """DOC"""


def view(x, dtype=None):
    """DOC"""


def vsplit(x, indices_or_sections):
    """DOC"""


def vstack(xs):
    """DOC"""


def where(condition, x1=None, x2=None):
    """DOC"""


def zeros(shape, dtype=None):
    """DOC"""


def zeros_like(x, dtype=None):
    """DOC"""
