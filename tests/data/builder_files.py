"""Real files for the dataset builder tests (PNG/JPEG via Pillow, .txt, 16-bit .wav via `wave`),
and the checks every builder test shares."""

import os
import wave

import numpy as np
import pytest

import tripod as keras
from tripod import layers
from tripod.backends import config
from tripod.data import formats

PIL_Image = pytest.importorskip("PIL.Image")

TRAINS = config.backend() != "numpy"
needs_tf = pytest.mark.skipif(not formats.tensorflow_installed(), reason="TensorFlow not installed")
#: the formats under test: "tf" only where TensorFlow is installed (else it means "tripod")
FORMATS = ["tripod"] + (["tf"] if formats.tensorflow_installed() else [])


def write_images(root, counts, size=(6, 8), ext="png", seed=0):
    """`counts[class]` random RGB images per class folder; {path: uint8 array}."""
    rng = np.random.default_rng(seed)
    written = {}
    for name, count in counts.items():
        os.makedirs(os.path.join(root, name), exist_ok=True)
        for i in range(count):
            pixels = rng.integers(0, 256, (*size, 3), dtype=np.uint8)
            path = os.path.join(root, name, f"img_{i}.{ext}")
            PIL_Image.fromarray(pixels).save(path)
            written[path] = pixels
    return written


def write_texts(root, counts):
    """`counts[class]` text files per class folder, "<class> sample <i>"; {path: text}."""
    written = {}
    for name, count in counts.items():
        os.makedirs(os.path.join(root, name), exist_ok=True)
        for i in range(count):
            path = os.path.join(root, name, f"doc_{i}.txt")
            with open(path, "w", encoding="utf-8") as f:
                f.write(f"{name} sample {i}")
            written[path] = f"{name} sample {i}"
    return written


def write_wav(path, samples, rate=8000):
    """A 16-bit PCM wav of int16 `samples` ((n,) mono or (n, channels))."""
    samples = np.asarray(samples, dtype="<i2")
    channels = 1 if samples.ndim == 1 else samples.shape[1]
    with wave.open(path, "wb") as f:
        f.setnchannels(channels)
        f.setsampwidth(2)
        f.setframerate(rate)
        f.writeframes(samples.tobytes())


def write_wavs(root, lengths, seed=0):
    """Per class folder, one mono wav per entry of `lengths[class]`; {path: int16 samples}."""
    rng = np.random.default_rng(seed)
    written = {}
    for name, sizes in lengths.items():
        os.makedirs(os.path.join(root, name), exist_ok=True)
        for i, size in enumerate(sizes):
            samples = rng.integers(-32768, 32768, size).astype("int16")
            path = os.path.join(root, name, f"clip_{i}.wav")
            write_wav(path, samples)
            written[path] = samples
    return written


def as_numpy(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def batches(dataset):
    """[(x, y) or x] of one pass over `dataset`, as NumPy arrays."""
    out = []
    for batch in dataset:
        out.append(
            tuple(as_numpy(t) for t in batch) if isinstance(batch, tuple) else as_numpy(batch)
        )
    return out


def fit_or_predict(dataset, model_layers, loss):
    """Train one epoch on `dataset` (predict only on the numpy backend); the predictions."""
    keras.utils.set_random_seed(0)
    model = keras.Sequential(model_layers)
    if TRAINS:
        model.compile(optimizer="sgd", loss=loss)
        history = model.fit(dataset, epochs=1, verbose=0)
        assert np.isfinite(history.history["loss"][-1])
    return model.predict(dataset, verbose=0)


def flat_dense(classes):
    return [layers.Flatten(), layers.Dense(classes)]
