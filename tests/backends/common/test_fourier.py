"""The (real, imaginary) pair checks of the Fourier-transform ops."""

import numpy as np
import pytest

from tripod.backends.common import fourier


def test_pair_parts():
    real, imag = fourier.pair_parts(np.asarray, ([1.0, 2.0], (3.0, 4.0)), "fft")
    np.testing.assert_array_equal(real, [1.0, 2.0])
    np.testing.assert_array_equal(imag, [3.0, 4.0])
    for bad in (np.zeros(3), (np.zeros(3),), [np.zeros(3)] * 3):
        with pytest.raises(ValueError, match=r"fft2 needs a tuple \(real, imaginary\)"):
            fourier.pair_parts(np.asarray, bad, "fft2")
    with pytest.raises(ValueError, match=r"ifft2: the real and imaginary parts differ in shape"):
        fourier.pair_parts(np.asarray, (np.zeros((2, 3)), np.zeros((3, 2))), "ifft2")
