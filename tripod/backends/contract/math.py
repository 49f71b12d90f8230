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
    """`log(sum(exp(x)))` over `axis`, computed stably."""


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
    """The `k` largest values along the last axis and their int32 indices."""


def view_as_complex(x):
    """A complex tensor from `x` whose last axis (size 2) holds real and imaginary parts."""


def view_as_real(x):
    """The real and imaginary parts of complex `x` stacked on a new last axis."""
