"""`STFT`: the initializer of the convolution kernels that compute a short-time Fourier transform.

A kernel of shape `(frame_length, channels, bins)` holds, for each frequency bin `k`, the real
(`cos`) or imaginary (`-sin`) part of the DFT basis `exp(-2i*pi*t*k / n_fft)` with
`n_fft = 2 * (bins - 1)`, multiplied by a window and divided by a scale, as Keras's
`STFTInitializer` does. The values are computed on the host like every tripod initializer.
Windows named "hann", "hamming", "blackman", "bartlett" and "boxcar" are computed here; other
names are looked up in `scipy.signal.windows` (the `audio` extra).
"""

import numpy as np

from tripod.backends import dtypes
from tripod.backends.common import optional
from tripod.layers.initializer_base import Initializer
from tripod.saving import registry

SIDES = ("real", "imag")
SCALINGS = ("density", "spectrum", None)

#: generalized-cosine windows: name -> coefficients a_j of sum_j (-1)^j a_j cos(2*pi*j*n / (m-1))
_COSINE_WINDOWS = {
    "hann": (0.5, 0.5),
    "hamming": (0.54, 0.46),
    "blackman": (0.42, 0.5, 0.08),
}


def _symmetric_window(name, length):
    """The symmetric window `name` of `length` samples, or None for a name computed by SciPy."""
    if name not in _COSINE_WINDOWS and name not in ("bartlett", "boxcar"):
        return None
    if length == 1 or name == "boxcar":
        return np.ones(length)
    position = np.arange(length) / (length - 1)
    if name == "bartlett":
        return 1.0 - np.abs(2.0 * position - 1.0)
    terms = enumerate(_COSINE_WINDOWS[name])
    return sum((-1) ** j * a * np.cos(2.0 * np.pi * j * position) for j, a in terms)


def _scipy_window(name, length, periodic):
    signal = optional.require("scipy.signal", "audio", f"The window {name!r}")
    return np.asarray(signal.get_window(name, length, fftbins=periodic), dtype=np.float64)


def named_window(name, length, periodic=False):
    """The window `name` (as `scipy.signal.get_window` names it) of `length` samples, as float64;
    periodic windows are the first `length` samples of the symmetric one of `length + 1`."""
    values = _symmetric_window(name, length + 1 if periodic else length)
    if values is None:
        return _scipy_window(name, length, periodic)
    return values[:length]


def check_window(window, owner):
    """Raise a clear ValueError if `window` is neither None, a known window name nor 1-D values."""
    if window is None:
        return
    if isinstance(window, str):
        try:
            named_window(window, 1)
        except ValueError as e:
            raise ValueError(f"{owner}: unknown window {window!r} ({e}).") from None
        return
    if np.ndim(window) != 1:
        raise ValueError(
            f"{owner}: window must be a name, 1-D values or None, received an array of shape "
            f"{np.shape(window)}."
        )


def check_scaling(scaling, owner):
    """Raise a clear ValueError if `scaling` is not "density", "spectrum" or None."""
    if scaling not in SCALINGS:
        raise ValueError(f"{owner}: scaling must be one of {SCALINGS}, received {scaling!r}.")


def window_config(window):
    """`window` as a config value: arrays as lists, names and None as they are."""
    return window if window is None or isinstance(window, str) else np.asarray(window).tolist()


class STFT(Initializer):
    """Kernels `(frame_length, channels, bins)` computing the real or imaginary part of a
    windowed DFT by convolution: the fixed start of `STFTSpectrogram`'s trainable kernels."""

    def __init__(self, side="real", window="hann", scaling="density", periodic=False):
        if side not in SIDES:
            raise ValueError(f"STFT initializer: side must be one of {SIDES}, received {side!r}.")
        check_window(window, "STFT initializer")
        check_scaling(scaling, "STFT initializer")
        self.side = side
        self.window = window
        self.scaling = scaling
        self.periodic = periodic

    def _window(self, frame_length):
        """The window as a (frame_length, 1, 1) float64 array over its scale, or None."""
        if self.window is None:
            return None
        if isinstance(self.window, str):
            values = named_window(self.window, frame_length, self.periodic)
        else:
            values = np.asarray(self.window, dtype=np.float64)
        if values.shape != (frame_length,):
            raise ValueError(
                f"STFT initializer: the window must have shape ({frame_length},) (the kernel's "
                f"frame length), received shape {values.shape}."
            )
        if self.scaling == "density":
            values = values / np.sqrt(np.sum(np.square(values)))
        elif self.scaling == "spectrum":
            values = values / np.sum(np.abs(values))
        return values.reshape(frame_length, 1, 1)

    def __call__(self, shape, dtype=None):
        if len(shape) != 3:
            raise ValueError(
                "STFT initializer: the kernel shape must be (frame_length, channels, bins), "
                f"received {tuple(shape)}."
            )
        frame_length, _, bins = shape
        time = np.arange(frame_length).reshape(frame_length, 1, 1)
        frequency = np.arange(bins).reshape(1, 1, bins) / max(2 * (bins - 1), 1)
        phase = -2.0 * np.pi * time * frequency
        kernel = np.cos(phase) if self.side == "real" else np.sin(phase)
        window = self._window(frame_length)
        if window is not None:
            kernel = kernel * window
        kernel = np.broadcast_to(kernel, tuple(shape))
        return kernel.astype(dtypes.to_numpy(dtypes.standardize_dtype(dtype)))

    def get_config(self):
        return {
            "side": self.side,
            "window": window_config(self.window),
            "periodic": self.periodic,
            "scaling": self.scaling,
        }


STFTInitializer = STFT
stft = STFT

# Keras 3 resolves this class by its name, its former name and its snake_case alias.
for _name in ("STFT", "STFTInitializer", "stft"):
    registry.register_builtin(STFT, "keras.initializers", _name)
