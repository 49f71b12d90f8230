"""NumPy-style ops that make arrays: filled, ranges, grids, identity and triangular, windows."""


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in [start, stop) with `step`."""


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
    """An `N` x `M` matrix with ones on the `k`-th diagonal."""


def full(shape, fill_value, dtype=None):
    """A tensor of `shape` filled with `fill_value`."""


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
    """`num` evenly spaced values from `start` to `stop` (and the step if `retstep`)."""


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """`num` values `base ** t` for t evenly spaced from `start` to `stop`."""


def meshgrid(*x, indexing="xy"):
    """Coordinate grids from 1-D tensors `x` (`xy` or `ij` indexing)."""


def ones(shape, dtype=None):
    """A tensor of `shape` filled with ones."""


def ones_like(x, dtype=None):
    """A tensor shaped like `x` filled with ones."""


def tri(N, M=None, k=0, dtype=None):
    """An `N` x `M` matrix with ones at and below the `k`-th diagonal."""


def tril(x, k=0):
    """`x` with the elements above the `k`-th diagonal zeroed."""


def triu(x, k=0):
    """`x` with the elements below the `k`-th diagonal zeroed."""


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of 1-D `x` with `N` columns of powers."""


def zeros(shape, dtype=None):
    """A tensor of `shape` filled with zeros."""


def zeros_like(x, dtype=None):
    """A tensor shaped like `x` filled with zeros."""
