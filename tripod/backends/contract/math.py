"""Math ops: segment reductions, top-k, FFTs and special functions."""

# ruff: noqa: A001, A002


def cdist(x, y):
    """DOC"""


def erf(x):
    """DOC"""


def erfc(x):
    """DOC"""


def erfinv(x):
    """DOC"""


def extract_sequences(x, sequence_length, sequence_stride):
    """DOC"""


def fft(x):
    """DOC"""


def fft2(x):
    """DOC"""


def ifft2(x):
    """DOC"""


def in_top_k(targets, predictions, k):
    """DOC"""


def irfft(x, fft_length=None):
    """DOC"""


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window='hann', center=True):
    """DOC"""


def logdet(x):
    """DOC"""


def logsumexp(x, axis=None, keepdims=False):
    """DOC"""


def rfft(x, fft_length=None):
    """DOC"""


def rsqrt(x):
    """DOC"""


def segment_max(data, segment_ids, num_segments=None, sorted=False):
    """DOC"""


def segment_min(data, segment_ids, num_segments=None, sorted=False):
    """DOC"""


def segment_prod(data, segment_ids, num_segments=None, sorted=False):
    """DOC"""


def segment_sum(data, segment_ids, num_segments=None, sorted=False):
    """DOC"""


def stft(x, sequence_length, sequence_stride, fft_length, window='hann', center=True):
    """DOC"""


def top_k(x, k, sorted=True):
    """DOC"""


def view_as_complex(x):
    """DOC"""


def view_as_real(x):
    """DOC"""
