"""Math ops written over a backend's other ops (framing, STFT, complex views, distances)."""

import numpy as np

from tripod.backends import dtypes
from tripod.backends.common.derived import helpers as c

__all__ = [
    "cdist",
    "extract_sequences",
    "in_top_k",
    "istft",
    "logdet",
    "stft",
    "view_as_complex",
    "view_as_real",
]

#: below this, an overlap-added squared window counts as zero (the output there is 0)
_WINDOW_FLOOR = 1e-10


# -- framing -------------------------------------------------------------------------------------
def _frame_indices(length, frame, stride):
    """The (frames, frame) int32 matrix of sample indices of each frame of a `length` signal."""
    count = 1 + (length - frame) // stride
    return np.arange(count)[:, None] * stride + np.arange(frame)[None, :]


def extract_sequences(ops, x, sequence_length, sequence_stride):
    x = ops.convert_to_tensor(x)
    if not c.shape(ops, x):
        raise ValueError("ops.extract_sequences: x must have at least one axis.")
    length = c.shape(ops, x)[-1]
    if length is None:
        raise ValueError("ops.extract_sequences: the last axis of x must have a static size.")
    if sequence_length < 1 or sequence_stride < 1 or sequence_length > length:
        raise ValueError(
            f"ops.extract_sequences: need 1 <= sequence_length ({sequence_length}) <= the last "
            f"axis ({length}) and sequence_stride ({sequence_stride}) >= 1."
        )
    indices = _frame_indices(length, sequence_length, sequence_stride).astype("int32")
    return ops.take(x, ops.convert_to_tensor(indices), axis=-1)


def _stft_window(ops, window, sequence_length, fft_length, dtype):
    """The analysis window, zero-padded on both sides to `fft_length`, or None for no window."""
    if fft_length < sequence_length:
        raise ValueError(
            f"ops.stft: fft_length ({fft_length}) must be >= sequence_length ({sequence_length})."
        )
    if window is None:
        return None
    if isinstance(window, str):
        phase = 2.0 * np.pi * np.arange(sequence_length) / sequence_length
        if window == "hann":
            values = 0.5 - 0.5 * np.cos(phase)
        elif window == "hamming":
            values = 0.54 - 0.46 * np.cos(phase)
        else:
            raise ValueError(
                "ops.stft: window must be 'hann', 'hamming', a tensor or None, "
                f"received {window!r}."
            )
        window = ops.convert_to_tensor(values, dtype=dtype)
    else:
        window = ops.cast(window, dtype)
        if not c.compatible(c.shape(ops, window), (sequence_length,)):
            raise ValueError(
                f"ops.stft: window must have shape ({sequence_length},), "
                f"got {c.shape(ops, window)}."
            )
    left = (fft_length - sequence_length) // 2
    return ops.pad(window, [(left, fft_length - sequence_length - left)])


def stft(ops, x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    x = c.to_float(ops, x)
    window = _stft_window(ops, window, sequence_length, fft_length, c.dtype_of(ops, x))
    if center:
        half = fft_length // 2
        x = ops.pad(x, [(0, 0)] * (c.rank(ops, x) - 1) + [(half, half)], mode="reflect")
    frames = ops.extract_sequences(x, fft_length, sequence_stride)
    if window is not None:
        frames = ops.multiply(frames, window)
    return ops.rfft(frames, fft_length)


def _overlap_add(ops, frames, stride):
    """Frames (..., n, F) summed into one signal (..., (n - 1) * stride + F), hop `stride`."""
    *batch, count, frame = c.shape(ops, frames)
    pieces = -(-frame // stride)
    padded = ops.pad(frames, [(0, 0)] * (len(batch) + 1) + [(0, pieces * stride - frame)])
    chunks = ops.reshape(padded, c.static_shape([*batch, count, pieces, stride]))
    rank = len(batch) + 2
    total = None
    for j in range(pieces):
        part = ops.take(chunks, j, axis=rank - 1)
        part = ops.pad(part, [(0, 0)] * len(batch) + [(j, pieces - 1 - j), (0, 0)])
        total = part if total is None else ops.add(total, part)
    signal = ops.reshape(total, c.static_shape([*batch, (count + pieces - 1) * stride]))
    return c.slice_axis(ops, signal, 0, (count - 1) * stride + frame, len(batch))


def istft(
    ops, x, sequence_length, sequence_stride, fft_length, length=None, window="hann", center=True
):
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError("ops.istft: x must be a (real, imag) pair of tensors.")
    real, imag = c.promote(ops, *x, floating=True)
    frames = ops.irfft((real, imag), fft_length)
    dtype = c.dtype_of(ops, frames)
    window = _stft_window(ops, window, sequence_length, fft_length, dtype)
    if window is None:
        window = ops.ones((fft_length,), dtype=dtype)
    count = c.shape(ops, frames)[-2]
    signal = _overlap_add(ops, ops.multiply(frames, window), sequence_stride)
    weight = ops.broadcast_to(ops.square(window), (count, fft_length))
    weight = _overlap_add(ops, weight, sequence_stride)
    covered = ops.greater(weight, _WINDOW_FLOOR)
    signal = ops.where(covered, ops.divide(signal, ops.where(covered, weight, 1.0)), 0.0)
    total = c.shape(ops, signal)[-1]
    start = fft_length // 2 if center else 0
    stop = total - start if length is None else min(start + length, total)
    return c.slice_axis(ops, signal, start, stop, c.rank(ops, signal) - 1)


# -- classification ------------------------------------------------------------------------------
def in_top_k(ops, targets, predictions, k):
    predictions = ops.convert_to_tensor(predictions)
    targets = ops.cast(targets, "int32")
    classes = c.shape(ops, predictions)[-1]
    valid = ops.logical_and(ops.greater_equal(targets, 0), ops.less(targets, classes))
    safe = ops.expand_dims(ops.where(valid, targets, 0), -1)
    target_score = ops.take_along_axis(predictions, safe, axis=-1)
    above = ops.sum(ops.cast(ops.greater(predictions, target_score), "int32"), axis=-1)
    found = ops.logical_and(valid, ops.less(above, k))
    if c.is_float(ops, predictions):
        found = ops.logical_and(found, ops.isfinite(ops.squeeze(target_score, -1)))
    return found


# -- linear algebra and complex views ------------------------------------------------------------
def logdet(ops, x):
    return ops.slogdet(x)[1]


def view_as_real(ops, x):
    x = c.to_float(ops, x)
    if dtypes.is_complex(c.dtype_of(ops, x)):
        return ops.stack([ops.real(x), ops.imag(x)], axis=-1)
    return ops.stack([x, ops.zeros_like(x)], axis=-1)


def view_as_complex(ops, x):
    x = c.to_float(ops, x)
    shape = c.shape(ops, x)
    if not shape or shape[-1] != 2:
        raise ValueError(f"ops.view_as_complex: the last axis must have size 2, got shape {shape}.")
    real, imag = ops.unstack(x, axis=-1)
    return c.complex_from_parts(ops, real, imag)


def cdist(ops, x, y):
    x, y = c.promote(ops, x, y, floating=True)
    if c.rank(ops, x) < 2 or c.rank(ops, y) < 2:
        raise ValueError(
            f"ops.cdist: x and y must have rank >= 2, got {c.shape(ops, x)} and {c.shape(ops, y)}."
        )
    if not c.compatible(c.shape(ops, x)[-1:], c.shape(ops, y)[-1:]):
        raise ValueError(
            f"ops.cdist: feature sizes differ: {c.shape(ops, x)} and {c.shape(ops, y)}."
        )
    difference = ops.subtract(ops.expand_dims(x, -2), ops.expand_dims(y, -3))
    return ops.sqrt(ops.sum(ops.square(difference), axis=-1))
