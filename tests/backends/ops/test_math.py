"""Parity of the math ops: special functions, segment reductions, top-k, FFTs and STFTs."""

import numpy as np
import pytest

from tests.backends.ops.cases import case, ops_in, params
from tests.backends.ops.harness import BACKEND, randint, randn, uniform

# FFT libraries split and order their butterflies differently: float32 sums of up to 16 terms
# of size ~1 agree to a few ulps of the largest term, not of each (possibly tiny) output.
FFT_TOL = 1e-4

X3 = randn(2, 3, 4)
_SQUARE = randn(2, 3, 3)
SPD = _SQUARE @ np.swapaxes(_SQUARE, -1, -2) + 3 * np.eye(3, dtype="float32")

ELEMENTWISE = [
    *(
        case(op, x)
        for op in ("erf", "erfc")
        for x in (randn(2, 3) * 2, randn(4).astype("float64"), randint(4, low=-2, high=3), randn(0))
    ),
    case("erf", np.array([-np.inf, 0.0, np.inf, np.nan], "float32")),
    case("erfinv", uniform(2, 3, low=-0.95, high=0.95)),
    case("erfinv", uniform(4, low=-0.95, high=0.95, dtype="float64")),
    case("erfinv", np.array([-1.0, 0.0, 1.0], "float32")),
    case("erfinv", np.array([0], "int32")),
    case("rsqrt", uniform(2, 3, low=0.1, high=4)),
    case("rsqrt", uniform(4, low=0.1, high=4, dtype="float64")),
    case("rsqrt", np.array([1, 4, 16], "int32")),
    case("rsqrt", np.array([0.0, np.inf], "float32")),
    case("logsumexp", X3),
    case("logsumexp", X3, 0),
    case("logsumexp", X3, axis=-1, keepdims=True),
    case("logsumexp", X3, (0, 2)),
    case("logsumexp", X3 * 100, 1),
    case("logsumexp", np.array([-np.inf, -np.inf], "float32")),
    case("logsumexp", randn(3).astype("float64")),
    case("logsumexp", randint(2, 3), 1),
]

IDS_SORTED = np.array([0, 0, 1, 2, 2, 2], "int32")
IDS_UNSORTED = np.array([2, 0, 1, 0, 2, 1], "int32")
DATA = randn(6, 3)
SEGMENTS = [
    *(
        case(op, DATA, IDS_SORTED, 3, True)
        for op in ("segment_sum", "segment_prod", "segment_max", "segment_min")
    ),
    *(
        case(op, DATA, IDS_UNSORTED, num_segments=3)
        for op in ("segment_sum", "segment_prod", "segment_max", "segment_min")
    ),
    *(
        case(op, DATA[:, 0], IDS_UNSORTED)
        for op in ("segment_sum", "segment_prod", "segment_max", "segment_min")
    ),
    *(
        case(op, randint(6, 2, low=-5, high=5), IDS_SORTED, 3)
        for op in ("segment_sum", "segment_prod", "segment_max", "segment_min")
    ),
    case("segment_sum", DATA, IDS_SORTED, 5),  # segments 3 and 4 are empty: zeros
    case("segment_prod", DATA, IDS_SORTED, 4, sorted=True),  # segment 3 is empty: ones
    case("segment_sum", randn(6, 2, 2), IDS_UNSORTED, 3),
    case("segment_max", randn(6, 2, 2), IDS_SORTED, 3, sorted=True),
]

DISTINCT = np.argsort(randn(3, 6), axis=-1).astype("float32") + randn(3, 1)
# NaNs of both signs, infinities, ties and zeros of both signs: top_k's order, largest first, is
# 1 4 (NaN ranks highest) 3 2 6 0 7 8 (-0.0 ties 0.0) 9 5.
NAN_TIES = np.array([[1, np.nan, 3, np.inf, -np.nan, -np.inf, 3, -0.0, 0, -2.5]], "float32")
TOPK = [
    case("top_k", DISTINCT, 2),
    case("top_k", DISTINCT, 6),
    case("top_k", DISTINCT, k=1),
    case("top_k", randint(2, 3, 5, low=-99, high=99) * 10 + np.arange(5, dtype="int32"), 3),
    case("top_k", DISTINCT[0], 4),
    *(case("top_k", NAN_TIES.astype(dtype), 10) for dtype in ("float32", "float16", "float64")),
    case("top_k", np.where(DISTINCT > 2, np.nan, DISTINCT).astype("float32"), 4),
    # With sorted=False the order is free: compare which indices were picked.
    case("top_k", DISTINCT, 3, sorted=False).then(lambda ops, r: (ops.sort(r[1], -1),)),
    case("in_top_k", np.array([0, 5, 2], "int32"), DISTINCT, 2),
    case("in_top_k", np.array([0, 5, 2], "int32"), DISTINCT, 1),
    case("in_top_k", np.array([3, 3, 3], "int64"), DISTINCT, k=6),
]

SIGNAL = randn(2, 16)
COMPLEX_PAIR = (randn(2, 8), randn(2, 8))
FFT = [
    case("fft", COMPLEX_PAIR).tol(FFT_TOL),
    case("fft", (randn(3, 5), randn(3, 5))).tol(FFT_TOL),
    case("fft", (randn(4).astype("float64"), randn(4).astype("float64"))).tol(FFT_TOL),
    case("fft2", (randn(2, 4, 8), randn(2, 4, 8))).tol(FFT_TOL),
    case("fft2", (randn(3, 5), randn(3, 5))).tol(FFT_TOL),
    case("ifft2", (randn(2, 4, 8), randn(2, 4, 8))).tol(FFT_TOL),
    case("ifft2", (randn(3, 6), randn(3, 6))).tol(FFT_TOL),
    case("rfft", SIGNAL).tol(FFT_TOL),
    case("rfft", randn(3, 7)).tol(FFT_TOL),
    case("rfft", SIGNAL, 8).tol(FFT_TOL),
    case("rfft", SIGNAL, fft_length=20).tol(FFT_TOL),
    case("rfft", randn(5).astype("float64")).tol(FFT_TOL),
    case("irfft", (randn(2, 9), randn(2, 9))).tol(FFT_TOL),
    case("irfft", (randn(2, 9), randn(2, 9)), 16).tol(FFT_TOL),
    case("irfft", (randn(2, 5), randn(2, 5)), fft_length=9).tol(FFT_TOL),
    case("irfft", (randn(3, 4), randn(3, 4)), 4).tol(FFT_TOL),
    case("stft", SIGNAL, 8, 4, 8).tol(FFT_TOL),
    case("stft", SIGNAL, 6, 2, 8, window="hamming").tol(FFT_TOL),
    case("stft", SIGNAL, 8, 3, 16, None, False).tol(FFT_TOL),
    case("stft", randn(20), 5, 5, 8, window=uniform(5), center=True).tol(FFT_TOL),
    case("stft", randn(3, 10).astype("float64"), 4, 2, 4, center=False).tol(FFT_TOL),
    case("istft", (randn(2, 5, 5), randn(2, 5, 5)), 8, 4, 8).tol(FFT_TOL),
    case("istft", (randn(2, 9, 5), randn(2, 9, 5)), 6, 2, 8, length=16, window="hamming").tol(
        FFT_TOL
    ),
    case("istft", (randn(7, 9), randn(7, 9)), 16, 4, 16, window=None, center=False).tol(FFT_TOL),
    case("istft", (randn(2, 4, 3), randn(2, 4, 3)), 4, 2, 4, 10).tol(FFT_TOL),
    case("extract_sequences", SIGNAL, 4, 2),
    case("extract_sequences", randn(3, 2, 10), 5, 5),
    case("extract_sequences", randn(7), 3, 1),
    case("extract_sequences", randint(2, 9), sequence_length=4, sequence_stride=3),
]


def _roundtrip(ops, frames):
    """stft followed by istft: the signal back, wherever the windows overlap enough."""
    return ops.istft(frames, 8, 4, 8, length=16)


ROUNDTRIP = [case("stft", SIGNAL, 8, 4, 8).then(_roundtrip).tol(FFT_TOL)]

MATRICES = [
    case("logdet", SPD),
    case("logdet", SPD[0]),
    case("logdet", SPD.astype("float64")),
    case("logdet", np.diag([1.0, 2.0, 4.0]).astype("float32")),
    case("cdist", randn(3, 4), randn(5, 4)),
    case("cdist", randn(2, 3, 4), randn(2, 5, 4)),
    case("cdist", randn(3, 1), randn(3, 1)),
    case("cdist", randint(3, 2), randint(4, 2)),
    case("cdist", randn(3, 4).astype("float64"), randn(2, 4).astype("float64")),
    case("view_as_real", (randn(2, 3) + 1j * randn(2, 3)).astype("complex64")),
    case("view_as_real", (randn(4) + 1j * randn(4)).astype("complex128")),
    case("view_as_complex", randn(2, 3, 2)),
    case("view_as_complex", randn(4, 2).astype("float64")),
]

CASES = ELEMENTWISE + SEGMENTS + TOPK + FFT + ROUNDTRIP + MATRICES
TESTED = ops_in(CASES)


@pytest.mark.parametrize("c", params(CASES))
def test_parity(c):
    c.run()


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
def test_top_k_ranks_nan_above_every_number_and_equal_values_by_index(dtype):
    x = NAN_TIES.astype(dtype)
    values, indices = BACKEND.top_k(BACKEND.convert_to_tensor(x), 10)
    order = [[1, 4, 3, 2, 6, 0, 7, 8, 9, 5]]
    np.testing.assert_array_equal(BACKEND.convert_to_numpy(indices), order)
    np.testing.assert_array_equal(BACKEND.convert_to_numpy(values), np.take(x, order))
