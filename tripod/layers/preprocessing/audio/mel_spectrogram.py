"""`MelSpectrogram`: raw audio to (decibel) mel spectrograms, in models and input pipelines.

The power spectrogram comes from `stft` (centred frames, reflect padding), is warped to the mel
scale by a triangular filter bank (the HTK convention `mel(f) = 1127 ln(1 + f / 700)`, peaks of
1, the DC bin left out) built once at build time, and optionally converted to decibels.
"""

import numpy as np

from tripod.layers.preprocessing.audio.arguments import check_positive_int
from tripod.layers.preprocessing.data_layer import DataLayer
from tripod.layers.stft_initializer import window_config

#: the HTK mel scale: mel(f) = _MEL_Q * ln(1 + f / _MEL_BREAK)
_MEL_BREAK = 700.0
_MEL_Q = 1127.0

_WINDOWS = ("hann", "hamming", None)


def hertz_to_mel(frequencies):
    """Frequencies in hertz on the HTK mel scale."""
    return _MEL_Q * np.log1p(np.asarray(frequencies, dtype=np.float64) / _MEL_BREAK)


def mel_weight_matrix(
    num_mel_bins, num_spectrogram_bins, sampling_rate, lower_edge_hertz, upper_edge_hertz
):
    """The (num_spectrogram_bins, num_mel_bins) float64 matrix of triangular mel filters that
    right-multiplies a linear spectrogram of bins spread evenly over [0, sampling_rate / 2]."""
    bins = hertz_to_mel(np.linspace(0.0, sampling_rate / 2.0, num_spectrogram_bins)[1:])[:, None]
    edges = np.linspace(
        hertz_to_mel(lower_edge_hertz), hertz_to_mel(upper_edge_hertz), num_mel_bins + 2
    )
    lower, center, upper = edges[:-2], edges[1:-1], edges[2:]
    rising = (bins - lower) / (center - lower)
    falling = (upper - bins) / (upper - center)
    weights = np.maximum(0.0, np.minimum(rising, falling))
    return np.pad(weights, [(1, 0), (0, 0)])


class MelSpectrogram(DataLayer):
    """Mel spectrograms of raw audio, in decibels by default.

    Audio `(..., samples)` is cut into frames of `sequence_length` samples every
    `sequence_stride` samples (centred, the signal padded by reflection), each windowed and
    transformed with `fft_length`. The power spectrum (raised to `mag_exp / 2`) is mapped to
    `num_mel_bins` triangular mel filters (the HTK mel scale) between `min_freq` and `max_freq`,
    and converted to decibels with `power_to_db`. The output is `(..., num_mel_bins, frames)`
    with `frames = 1 + samples // sequence_stride` (for an even `fft_length`).

    Args:
        fft_length: int > 0, the transform's length (default 2048).
        sequence_stride: int > 0, the samples between frame starts (default 512).
        sequence_length: int in [1, fft_length], the samples in a frame; default None:
            `fft_length`.
        window: "hann" (default), "hamming", None (no window), or values of shape
            `(sequence_length,)`.
        sampling_rate: number, the samples per second of the audio (default 16000).
        num_mel_bins: int > 0, the number of mel filters (default 128).
        min_freq: number >= 0, the lowest frequency of the filters, in hertz (default 20.0).
        max_freq: number > min_freq, the highest frequency, in hertz; default None:
            `sampling_rate / 2`.
        power_to_db: bool, convert to decibels: `10 log10(power / ref_power)` (default True).
        top_db: float or None, floor the decibels at `top_db` below the batch's maximum (default
            80.0); None does not.
        mag_exp: number, the exponent of the magnitude (default 2.0, the power; 1.0 the
            magnitude).
        min_power: float > 0, the floor of the power (and of `ref_power`) before the log (default
            1e-10).
        ref_power: float, the power of 0 decibels (default 1.0).
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `fft_length`, `sequence_stride`, `sequence_length` or `num_mel_bins` not a
            positive integer, `sequence_length` above `fft_length`, an unknown window or values
            of the wrong shape, frequencies not `0 <= min_freq < max_freq`, or a scalar input.

    Examples:
        >>> layer = tripod.layers.MelSpectrogram(
        ...     fft_length=64, sequence_stride=32, num_mel_bins=8, sampling_rate=8000
        ... )
        >>> tuple(layer(np.zeros((2, 256), "float32")).shape)  # 1 + 256 // 32 frames
        (2, 8, 9)
    """

    def __init__(
        self,
        fft_length=2048,
        sequence_stride=512,
        sequence_length=None,
        window="hann",
        sampling_rate=16000,
        num_mel_bins=128,
        min_freq=20.0,
        max_freq=None,
        power_to_db=True,
        top_db=80.0,
        mag_exp=2.0,
        min_power=1e-10,
        ref_power=1.0,
        **kwargs,
    ):
        super().__init__(**kwargs)
        owner = f"MelSpectrogram '{self.name}'"
        sequence_length = sequence_length or fft_length
        for value, what in (
            (fft_length, "fft_length"),
            (sequence_stride, "sequence_stride"),
            (sequence_length, "sequence_length"),
            (num_mel_bins, "num_mel_bins"),
        ):
            check_positive_int(value, what, owner)
        if sequence_length > fft_length:
            raise ValueError(
                f"{owner}: fft_length ({fft_length}) must be >= sequence_length "
                f"({sequence_length})."
            )
        self._check_window(window, sequence_length, owner)
        max_freq = max_freq or int(sampling_rate / 2)
        if not 0 <= min_freq < max_freq:
            raise ValueError(
                f"{owner}: need 0 <= min_freq < max_freq, received min_freq={min_freq} and "
                f"max_freq={max_freq}."
            )
        self.fft_length, self.sequence_stride = fft_length, sequence_stride
        self.sequence_length, self.window = sequence_length, window
        self.sampling_rate, self.num_mel_bins = sampling_rate, num_mel_bins
        self.min_freq, self.max_freq = min_freq, max_freq
        self.power_to_db, self.top_db, self.mag_exp = power_to_db, top_db, mag_exp
        self.min_power, self.ref_power = min_power, ref_power

    @staticmethod
    def _check_window(window, sequence_length, owner):
        if isinstance(window, str) or window is None:
            if window not in _WINDOWS:
                raise ValueError(
                    f"{owner}: window must be one of {_WINDOWS} or values, received {window!r}."
                )
        elif np.shape(window) != (sequence_length,):
            raise ValueError(
                f"{owner}: a window given as values must have shape ({sequence_length},) "
                f"(sequence_length), received shape {np.shape(window)}."
            )

    @property
    def _stft_dtype(self):
        """The dtype of the spectrogram: float32 unless the layer computes in float64."""
        return "float64" if self.compute_dtype == "float64" else "float32"

    def build(self, input_shape):
        matrix = mel_weight_matrix(
            self.num_mel_bins,
            self.fft_length // 2 + 1,
            self.sampling_rate,
            self.min_freq,
            self.max_freq,
        )
        self._mel_values = matrix.astype(self._stft_dtype)
        self._window_values = (
            self.window
            if isinstance(self.window, str) or self.window is None
            else np.asarray(self.window, dtype=self._stft_dtype)
        )
        self.built = True

    def linear_to_mel_weight_matrix(
        self,
        num_mel_bins=20,
        num_spectrogram_bins=129,
        sampling_rate=8000,
        lower_edge_hertz=125.0,
        upper_edge_hertz=3800.0,
        dtype="float32",
    ):
        """The (num_spectrogram_bins, num_mel_bins) mel filter bank (see `mel_weight_matrix`) as
        a tensor of `dtype`."""
        matrix = mel_weight_matrix(
            num_mel_bins, num_spectrogram_bins, sampling_rate, lower_edge_hertz, upper_edge_hertz
        )
        return self.backend.convert_to_tensor(matrix, dtype=dtype)

    def call(self, inputs):
        backend = self.backend
        x = backend.cast(inputs, self._stft_dtype)
        if len(x.shape) < 1:
            raise ValueError(
                f"MelSpectrogram '{self.name}': inputs need a samples axis, received a scalar."
            )
        real, imag = backend.stft(
            x,
            self.sequence_length,
            self.sequence_stride,
            self.fft_length,
            window=self._window_values,
            center=True,
        )
        power = backend.add(backend.square(real), backend.square(imag))
        spectrum = power if self.mag_exp == 2 else backend.power(power, self.mag_exp / 2.0)
        # A constant in compiled steps and pipelines (a tensor cached at build would belong to
        # the graph that first built the layer, e.g. a tf.data map's).
        mel = backend.tensordot(spectrum, backend.convert_to_tensor(self._mel_values), axes=1)
        if self.power_to_db:
            mel = self._to_decibels(mel)
        return backend.cast(backend.swapaxes(mel, -1, -2), self.compute_dtype)

    def _to_decibels(self, power):
        """10 log10(power / ref_power), both floored at min_power, clipped `top_db` below the
        largest value of the whole batch (as Keras clips)."""
        backend = self.backend
        reference = 10.0 * np.log10(max(abs(self.ref_power), self.min_power))
        decibels = backend.multiply(backend.log10(backend.maximum(power, self.min_power)), 10.0)
        decibels = backend.subtract(decibels, reference)
        if self.top_db is None:
            return decibels
        return backend.maximum(decibels, backend.subtract(backend.max(decibels), self.top_db))

    def compute_output_shape(self, input_shape):
        *leading, samples = input_shape
        frames = None
        if samples is not None:
            padded = samples + 2 * (self.fft_length // 2)
            frames = 1 + (padded - self.fft_length) // self.sequence_stride
        return (*leading, self.num_mel_bins, frames)

    def get_config(self):
        return {
            **super().get_config(),
            "fft_length": self.fft_length,
            "sequence_stride": self.sequence_stride,
            "sequence_length": self.sequence_length,
            "window": window_config(self.window),
            "sampling_rate": self.sampling_rate,
            "num_mel_bins": self.num_mel_bins,
            "min_freq": self.min_freq,
            "max_freq": self.max_freq,
            "power_to_db": self.power_to_db,
            "top_db": self.top_db,
            "mag_exp": self.mag_exp,
            "min_power": self.min_power,
            "ref_power": self.ref_power,
        }
