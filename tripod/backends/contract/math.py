"""Math ops: segment reductions, top-k, FFTs and special functions."""


def cdist(x, y):
    """Pairwise Euclidean distances between the rows of `x` and the rows of `y`."""


def erf(x):
    """The Gauss error function of `x`."""


def erfc(x):
    """The complementary error function `1 - erf(x)`."""


def erfinv(x):
    """The inverse error function of `x` in (-1, 1)."""


def extract_sequences(x, sequence_length, sequence_stride):
    """Frames of `sequence_length` taken every `sequence_stride` along the last axis."""


def fft(x):
    """1-D FFT over the last axis of a complex input given as a (real, imag) pair."""


def fft2(x):
    """2-D FFT over the last two axes of a complex input given as a (real, imag) pair."""


def ifft2(x):
    """2-D inverse FFT over the last two axes of a (real, imag) pair."""


def in_top_k(targets, predictions, k):
    """Whether each `targets` class is among the `k` largest `predictions` of its row."""


def irfft(x, fft_length=None):
    """Real inverse FFT over the last axis of a (real, imag) half-spectrum pair."""


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann", center=True):
    """The inverse short-time Fourier transform of a (real, imag) pair, by overlap-add."""


def logdet(x):
    """The natural log of the determinant of each matrix in `x`."""


def logsumexp(x, axis=None, keepdims=False):
    """`log(sum(exp(x)))` over `axis`, computed stably.

    The largest value is taken out before the exponentials (`m + log(sum(exp(x - m)))`), so
    large inputs do not overflow and very negative ones do not all underflow to `log(0)`. It
    is the normalizer of `log_softmax` and a smooth maximum.

    Args:
        x: tensor.
        axis: int, or tuple of ints, the axis (axes) to reduce; default None, every axis.
        keepdims: bool, default False. True keeps each reduced axis with size 1, so that the
            result broadcasts against `x`.

    Returns:
        A tensor of `x`'s shape without the reduced axes (or with them as size 1 when
        `keepdims`); float inputs keep their dtype, integers give floatx. A slice of only
        `-inf` gives `-inf`.

    Examples:
        >>> x = np.array([[1.0, 2.0], [3.0, 4.0]], "float32")
        >>> print(np.round(tripod.ops.convert_to_numpy(tripod.ops.logsumexp(x, axis=1)), 4))
        [2.3133 4.3133]
        >>> big = np.array([1000.0, 1000.0], "float32")  # exp(1000) overflows float32
        >>> print(np.round(float(tripod.ops.logsumexp(big)), 2))  # 1000 + log(2)
        1000.69
    """


def rfft(x, fft_length=None):
    """Real FFT over the last axis of `x`, as a (real, imag) pair of the half spectrum."""


def rsqrt(x):
    """The reciprocal square root `1 / sqrt(x)`."""


def segment_max(data, segment_ids, num_segments=None, sorted=False):
    """The maximum of the `data` rows sharing each segment id."""


def segment_min(data, segment_ids, num_segments=None, sorted=False):
    """The minimum of the `data` rows sharing each segment id."""


def segment_prod(data, segment_ids, num_segments=None, sorted=False):
    """The product of the `data` rows sharing each segment id."""


def segment_sum(data, segment_ids, num_segments=None, sorted=False):
    """The sum of the `data` rows sharing each segment id."""


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    """The short-time Fourier transform of the last axis of `x`, as a (real, imag) pair."""


def top_k(x, k, sorted=True):
    """The `k` largest values along the last axis and their int32 indices.

    Args:
        x: tensor of rank >= 1; each slice along the last axis is searched on its own.
        k: int in `[0, n]` for a last axis of size `n`, the number of values to return.
        sorted: bool, default True, for Keras compatibility: the results are always sorted,
            largest first, whatever its value. Equal values come in the order of their
            indices; NaN ranks above every number, +inf included (as `sort` puts it last, and
            as jax's and torch's top-k do), and -0.0 equals 0.0.

    Returns:
        A tuple `(values, indices)`, both of shape `x.shape[:-1] + (k,)`: `values` holds the
        `k` largest entries of each slice in `x`'s dtype, `indices` (int32) their positions
        along the last axis.

    Raises:
        ValueError: `x` is a scalar or `k` lies outside `[0, n]`.

    Examples:
        >>> values, indices = tripod.ops.top_k(np.array([1, 5, 3, 5], "int32"), 2)
        >>> print(tripod.ops.convert_to_numpy(values), tripod.ops.convert_to_numpy(indices))
        [5 5] [1 3]
        >>> scores = np.array([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]], "float32")
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.top_k(scores, 1)[1]))
        [[1]
         [0]]
    """


def view_as_complex(x):
    """A complex tensor from `x` whose last axis (size 2) holds real and imaginary parts."""


def view_as_real(x):
    """The real and imaginary parts of complex `x` stacked on a new last axis."""
