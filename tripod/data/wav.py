"""WAV files to float32 audio with Python's `wave` module, and Fourier resampling.

Decoding follows `tf.audio.decode_wav`: PCM samples scaled to [-1, 1) (16-bit: / 32768),
shaped (samples, channels). Besides 16-bit, 8-bit (unsigned), 24-bit and 32-bit PCM read too.
"""

import wave

import numpy as np

#: bytes per sample -> (NumPy dtype of the raw integers, offset, full scale)
_PCM = {1: ("u1", 128.0, 128.0), 2: ("<i2", 0.0, 32768.0), 4: ("<i4", 0.0, 2.0**31)}


def _samples_24bit(raw):
    """Little-endian 24-bit samples as int32 (sign-extended)."""
    triples = np.frombuffer(raw, "u1").reshape(-1, 3).astype("<i4")
    values = triples[:, 0] | (triples[:, 1] << 8) | (triples[:, 2] << 16)
    return np.where(values >= 1 << 23, values - (1 << 24), values)


def read_wav(path):
    """(audio, sample_rate): float32 (samples, channels) in [-1, 1) from a PCM WAV file."""
    try:
        with wave.open(str(path), "rb") as file:
            width, channels = file.getsampwidth(), file.getnchannels()
            rate, raw = file.getframerate(), file.readframes(file.getnframes())
    except wave.Error as error:
        raise ValueError(f"{path}: not a PCM WAV file this reader decodes ({error})") from None
    if width == 3:
        values, offset, scale = _samples_24bit(raw), 0.0, 2.0**23
    elif width in _PCM:
        dtype, offset, scale = _PCM[width]
        values = np.frombuffer(raw, dtype)
    else:
        raise ValueError(f"{path}: {8 * width}-bit samples are not supported")
    audio = (values.astype("float64") - offset) / scale
    return audio.astype("float32").reshape(-1, channels), rate


def resample(audio, rate_in, rate_out):
    """`audio` (samples, channels) resampled from `rate_in` to `rate_out` Hz in the Fourier
    domain (spectrum cut or zero-extended, like `scipy.signal.resample`)."""
    rate_in, rate_out = int(rate_in), int(rate_out)
    length = len(audio)
    if rate_in == rate_out or length == 0:
        return np.asarray(audio, dtype="float32")
    new_length = max(1, round(length * rate_out / rate_in))
    spectrum = np.fft.rfft(audio, axis=0)
    kept = min(length, new_length)
    resized = np.zeros((new_length // 2 + 1,) + spectrum.shape[1:], spectrum.dtype)
    resized[: kept // 2 + 1] = spectrum[: kept // 2 + 1]
    if kept % 2 == 0:  # the Nyquist bin of the shorter signal holds both halves, or half of one
        resized[kept // 2] *= 2.0 if new_length < length else 0.5
    return (np.fft.irfft(resized, new_length, axis=0) * (new_length / length)).astype("float32")
