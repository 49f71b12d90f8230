"""`STFTSpectrogram`: spectrograms of multi-channel signals by convolution with STFT kernels.

As in Keras, the real and imaginary parts of the transform are two trainable kernels
`(frame_length, 1, fft_length // 2 + 1)` started by the `STFT` initializer, applied to each
channel alone; frames start at the signal's first sample (no centring) and the window covers the
first `frame_length` samples of each `fft_length` transform. The output is one of the modes'
values, laid out per `data_format` and `expand_dims`.
"""

import math
import warnings

import numpy as np

from tripod.backends import active, config, dtypes
from tripod.layers.input_spec import InputSpec
from tripod.layers.preprocessing.audio.arguments import check_positive_int
from tripod.layers.preprocessing.data_layer import DataLayer
from tripod.layers.stft_initializer import STFT, check_scaling, check_window, window_config

ops = active()

MODES = ("log", "magnitude", "psd", "real", "imag", "angle", "stft")
PADDINGS = ("valid", "same")
_FLOATS = ("float16", "float32", "float64")


def _conv_length(length, frame_length, step, padding):
    """The number of frames a `padding` convolution takes from `length` samples."""
    if length is None:
        return None
    if padding == "same":
        return -(-length // step)
    return max((length - frame_length) // step + 1, 0)


class STFTSpectrogram(DataLayer):
    """Short-time Fourier transform spectrograms of multi-channel signals, by convolution.

    Signals `(batch, time, channels)` (`(batch, channels, time)` channels first) are cut into
    frames of `frame_length` samples every `frame_step` samples, starting at the first sample; each
    frame is windowed and transformed with `fft_length // 2 + 1` frequency bins. The real and
    imaginary parts come from two trainable kernels `(frame_length, 1, bins)` started as the
    windowed DFT (the `STFT` initializer), applied to every channel alike. The output is
    `(batch, frames, channels * bins)` (channels first: `(batch, channels * bins, frames)`), or
    with `expand_dims` `(batch, frames, bins, channels)` (channels first:
    `(batch, channels, frames, bins)`); mode "stft" has twice the bins.

    Args:
        mode: what the output holds: "log" (default; the natural log of the magnitude),
            "magnitude", "psd" (the one-sided power density), "real", "imag", "angle" (the phase),
            or "stft" (the real bins, then the imaginary ones).
        frame_length: int > 0, the samples in a frame (default 256).
        frame_step: int in [1, frame_length], the samples between frame starts; default None:
            `frame_length // 2`.
        fft_length: int >= frame_length, the transform's length (best a power of two); default
            None: the smallest power of two >= `frame_length`.
        window: a window name ("hann" (default), "hamming", "blackman", "bartlett", "boxcar"; other
            names need SciPy), 1-D values of `frame_length`, or None (no window).
        periodic: bool, use the periodic form of a named window instead of the symmetric one
            (default False).
        scaling: how the window is normalized: "density" (default: to unit energy), "spectrum"
            (to unit sum) or None.
        padding: "valid" (default: whole frames only) or "same" (`ceil(time / frame_step)`
            frames).
        expand_dims: bool, keep the channels as their own axis (default False).
        data_format: "channels_last" or "channels_first"; default
            `tripod.config.image_data_format()`.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: an invalid argument (e.g. `frame_step` outside [1, frame_length],
            `fft_length` below `frame_length`, an unknown `mode`, `padding`, `scaling` or
            window), or inputs not of rank 3 or of unknown time or channel size.
        TypeError: inputs that are not floats.

    Examples:
        >>> layer = tripod.layers.STFTSpectrogram(frame_length=8, frame_step=4)
        >>> tuple(layer(np.zeros((1, 32, 2), "float32")).shape)  # 7 frames, 2 channels x 5 bins
        (1, 7, 10)
        >>> layer = tripod.layers.STFTSpectrogram(
        ...     mode="magnitude", frame_length=8, expand_dims=True
        ... )
        >>> tuple(layer(np.zeros((1, 32, 2), "float32")).shape), tuple(layer.real_kernel.shape)
        ((1, 7, 5, 2), (8, 1, 5))
    """

    def __init__(
        self,
        mode="log",
        frame_length=256,
        frame_step=None,
        fft_length=None,
        window="hann",
        periodic=False,
        scaling="density",
        padding="valid",
        expand_dims=False,
        data_format=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        owner = f"STFTSpectrogram '{self.name}'"
        check_positive_int(frame_length, "frame_length", owner)
        if frame_step is not None and not (
            isinstance(frame_step, (int, np.integer)) and 1 <= frame_step <= frame_length
        ):
            raise ValueError(
                f"{owner}: frame_step must be an integer in [1, frame_length={frame_length}], "
                f"received {frame_step!r}."
            )
        if fft_length is not None:
            check_positive_int(fft_length, "fft_length", owner)
            if fft_length < frame_length:
                raise ValueError(
                    f"{owner}: fft_length ({fft_length}) must be >= frame_length ({frame_length})."
                )
            if fft_length & (fft_length - 1):
                warnings.warn(
                    f"{owner}: fft_length is best a power of two, received {fft_length}.",
                    stacklevel=2,
                )
        if mode not in MODES:
            raise ValueError(f"{owner}: mode must be one of {MODES}, received {mode!r}.")
        if padding not in PADDINGS:
            raise ValueError(f"{owner}: padding must be one of {PADDINGS}, received {padding!r}.")
        check_scaling(scaling, owner)
        check_window(window, owner)
        self.mode, self.frame_length, self.frame_step = mode, frame_length, frame_step
        self.fft_length, self.window, self.periodic = fft_length, window, periodic
        self.scaling, self.padding, self.expand_dims = scaling, padding, expand_dims
        self.data_format = config.standardize_data_format(data_format)
        self._frame_step = frame_step or max(frame_length // 2, 1)
        self._fft_length = fft_length or 2 ** math.ceil(math.log2(frame_length))
        self.input_spec = InputSpec(ndim=3)

    @property
    def _bins(self):
        return self._fft_length // 2 + 1

    def build(self, input_shape):
        channels, time = self._channels_and_time(tuple(input_shape))
        if channels is None or time is None:
            raise ValueError(
                f"STFTSpectrogram '{self.name}': the time and channel axes must have known sizes, "
                f"received input shape {tuple(input_shape)}."
            )
        if self.mode != "imag":
            self.real_kernel = self._add_kernel("real")
        if self.mode != "real":
            self.imag_kernel = self._add_kernel("imag")
        self.built = True

    def _add_kernel(self, side):
        initializer = STFT(side, self.window, self.scaling, self.periodic)
        shape = (self.frame_length, 1, self._bins)
        return self.add_weight(name=f"{side}_kernel", shape=shape, initializer=initializer)

    def _kernel(self, variable, dtype):
        """`variable`'s value as a tensor of `self.backend` (another framework's in a pipeline)."""
        if self.backend is ops:
            return ops.cast(variable.value, dtype)
        return self.backend.convert_to_tensor(ops.convert_to_numpy(variable.value), dtype=dtype)

    def _channels_and_time(self, shape):
        """(channels, time) of an input shape, checked to be of rank 3."""
        if len(shape) != 3:
            layout = "time, channels" if self.data_format == "channels_last" else "channels, time"
            raise ValueError(
                f"STFTSpectrogram '{self.name}': inputs must have rank 3 (batch, {layout}), "
                f"received shape {shape}."
            )
        return (shape[2], shape[1]) if self.data_format == "channels_last" else (shape[1], shape[2])

    def _transform(self, signals, variable, channels, time):
        """One kernel's convolution of every channel: (batch, channels, frames, bins)."""
        backend = self.backend
        kernel = self._kernel(variable, dtypes.standardize_dtype(signals.dtype))
        frames = backend.conv(
            signals,
            kernel,
            strides=self._frame_step,
            padding=self.padding,
            data_format="channels_last",
        )
        count = _conv_length(time, self.frame_length, self._frame_step, self.padding)
        return backend.reshape(frames, (-1, channels, count, frames.shape[-1]))

    def _layout(self, values):
        """(batch, channels, frames, bins) values in the layer's output layout."""
        backend = self.backend
        _, channels, count, bins = values.shape
        if self.expand_dims:
            if self.data_format == "channels_last":
                return backend.transpose(values, (0, 2, 3, 1))
            return values
        if self.data_format == "channels_last":
            return backend.reshape(
                backend.transpose(values, (0, 2, 1, 3)), (-1, count, channels * bins)
            )
        return backend.reshape(
            backend.transpose(values, (0, 1, 3, 2)), (-1, channels * bins, count)
        )

    def _signals(self, inputs, time):
        """Each channel as its own single-channel signal: (batch * channels, time, 1)."""
        backend = self.backend
        dtype = dtypes.standardize_dtype(inputs.dtype)
        if dtype not in _FLOATS:
            raise TypeError(
                f"STFTSpectrogram '{self.name}': inputs must be float16, float32 or float64, "
                f"received {dtype}."
            )
        if self.data_format == "channels_last":
            inputs = backend.transpose(inputs, (0, 2, 1))
        return backend.reshape(inputs, (-1, time, 1))

    def call(self, inputs):
        channels, time = self._channels_and_time(tuple(inputs.shape))
        signals = self._signals(inputs, time)
        real = imag = None
        if self.mode != "imag":
            real = self._transform(signals, self.real_kernel, channels, time)
        if self.mode != "real":
            imag = self._transform(signals, self.imag_kernel, channels, time)
        return self._layout(self._values(real, imag))

    def _values(self, real, imag):
        """The mode's (batch, channels, frames, bins) values from the transform's parts."""
        backend = self.backend
        if self.mode == "real":
            return real
        if self.mode == "imag":
            return imag
        if self.mode == "angle":
            return backend.arctan2(imag, real)
        if self.mode == "stft":
            return backend.concatenate([real, imag], axis=-1)
        power = backend.add(backend.square(real), backend.square(imag))
        if self.mode == "psd":
            # one-sided density: every bin but DC and the last counts its mirror image too
            mirrored = backend.pad(power[..., 1:-1], [(0, 0), (0, 0), (0, 0), (1, 1)])
            return backend.add(power, mirrored)
        magnitude = backend.sqrt(backend.maximum(power, config.epsilon()))
        if self.mode == "magnitude":
            return magnitude
        return backend.log(backend.maximum(magnitude, config.epsilon()))

    def compute_output_shape(self, input_shape):
        batch = input_shape[0]
        channels, time = self._channels_and_time(tuple(input_shape))
        count = _conv_length(time, self.frame_length, self._frame_step, self.padding)
        bins = self._bins * (2 if self.mode == "stft" else 1)
        if self.expand_dims:
            if self.data_format == "channels_last":
                return (batch, count, bins, channels)
            return (batch, channels, count, bins)
        features = None if channels is None else channels * bins
        if self.data_format == "channels_last":
            return (batch, count, features)
        return (batch, features, count)

    def get_config(self):
        return {
            **super().get_config(),
            "mode": self.mode,
            "frame_length": self.frame_length,
            "frame_step": self.frame_step,
            "fft_length": self.fft_length,
            "window": window_config(self.window),
            "periodic": self.periodic,
            "scaling": self.scaling,
            "padding": self.padding,
            "expand_dims": self.expand_dims,
            "data_format": self.data_format,
        }
