"""The `STFT` initializer: DFT kernels times a (scaled) window, against hand and NumPy values."""

import numpy as np
import pytest

from tripod.layers import initializers
from tripod.layers.stft_initializer import STFT, STFTInitializer, named_window, stft
from tripod.saving import serialization


def test_windows_by_hand():
    np.testing.assert_allclose(named_window("hann", 5), [0.0, 0.5, 1.0, 0.5, 0.0], atol=1e-15)
    np.testing.assert_allclose(
        named_window("hann", 4, periodic=True), [0.0, 0.5, 1.0, 0.5], atol=1e-15
    )
    np.testing.assert_allclose(named_window("hamming", 3), [0.08, 1.0, 0.08], atol=1e-15)
    np.testing.assert_allclose(named_window("bartlett", 5), [0.0, 0.5, 1.0, 0.5, 0.0], atol=1e-15)
    np.testing.assert_allclose(named_window("blackman", 3), [0.0, 1.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(named_window("boxcar", 3), [1.0, 1.0, 1.0])
    np.testing.assert_allclose(named_window("hann", 1), [1.0])


@pytest.mark.parametrize("name", ["hann", "hamming", "blackman", "bartlett", "boxcar", "tukey"])
@pytest.mark.parametrize("periodic", [False, True])
def test_windows_match_scipy(name, periodic):
    signal = pytest.importorskip("scipy.signal")
    want = signal.get_window(name, 9, fftbins=periodic)
    np.testing.assert_allclose(named_window(name, 9, periodic), want, atol=1e-12)


def test_kernel_by_hand():
    """frame 2, 3 bins (n_fft 4), no window: cos/-sin of 2*pi*t*k/4."""
    real = STFT("real", window=None)((2, 1, 3))
    imag = STFT("imag", window=None)((2, 1, 3))
    np.testing.assert_allclose(real[:, 0], [[1, 1, 1], [1, 0, -1]], atol=1e-7)
    np.testing.assert_allclose(imag[:, 0], [[0, 0, 0], [0, -1, 0]], atol=1e-7)
    assert real.dtype == np.float32


@pytest.mark.parametrize("scaling", ["density", "spectrum", None])
def test_kernel_is_a_windowed_dft(scaling):
    """Convolving a frame with the kernels gives NumPy's rfft of the scaled, windowed frame."""
    frame_length, bins = 12, 9
    window = named_window("hamming", frame_length)
    scale = {"density": np.sqrt(np.sum(window**2)), "spectrum": np.sum(window), None: 1.0}[scaling]
    frame = np.random.default_rng(0).standard_normal(frame_length)
    want = np.fft.rfft(frame * window / scale, n=2 * (bins - 1))
    kernels = [
        STFT(side, "hamming", scaling)((frame_length, 1, bins), "float64")
        for side in ("real", "imag")
    ]
    np.testing.assert_allclose(frame @ kernels[0][:, 0], want.real, atol=1e-12)
    np.testing.assert_allclose(frame @ kernels[1][:, 0], want.imag, atol=1e-12)


def test_window_values_and_channels():
    window = np.linspace(0.1, 1.0, 4)
    kernel = STFT("real", window, scaling=None)((4, 2, 3), "float64")
    assert kernel.shape == (4, 2, 3)
    np.testing.assert_allclose(kernel[:, 1, 0], window)
    np.testing.assert_allclose(kernel[:, 0], kernel[:, 1])


def test_bad_arguments():
    with pytest.raises(ValueError, match="side"):
        STFT("both")
    with pytest.raises(ValueError, match="scaling"):
        STFT(scaling="l2")
    with pytest.raises(ValueError, match="window"):
        STFT(window=np.ones((2, 2)))
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        STFT(window=np.ones(3))((4, 1, 3))
    with pytest.raises(ValueError, match="frame_length, channels, bins"):
        STFT()((4, 3))


def test_bad_window_name():
    pytest.importorskip("scipy.signal")
    with pytest.raises(ValueError, match="unknown window 'nope'"):
        STFT(window="nope")


def test_config_and_names():
    assert STFTInitializer is STFT and stft is STFT
    init = STFT("imag", [0.5, 1.0, 0.5], "spectrum", True)
    config = init.get_config()
    assert config == {
        "side": "imag",
        "window": [0.5, 1.0, 0.5],
        "periodic": True,
        "scaling": "spectrum",
    }
    again = serialization.deserialize(serialization.serialize(init))
    assert isinstance(again, STFT) and again.get_config() == config
    for name in ("STFT", "STFTInitializer", "stft"):
        assert isinstance(initializers.get(name), STFT)
    assert isinstance(initializers.get({"class_name": "STFTInitializer", "config": config}), STFT)
