"""The benchmark problems and their data (no tripod import: the native loops use this too)."""

import time

import numpy as np

PROBLEMS = {
    # name: (input shape, output units, batch size, samples, epochs timed)
    "tutorial_mlp": ((10,), 1, 1000, 1000, 300),
    "mnist_mlp": ((784,), 10, 128, 2560, 5),
    "small_cnn": ((28, 28, 1), 10, 128, 1280, 2),
}


def data(name):
    """Fixed synthetic data for a problem: (x, y) NumPy arrays."""
    shape, units, _, samples, _ = PROBLEMS[name]
    rng = np.random.default_rng(0)
    x = rng.standard_normal((samples,) + shape).astype("float32")
    if units == 1:
        w = rng.standard_normal((shape[0], 1)).astype("float32")
        return x, (x @ w + 0.1 * rng.standard_normal((samples, 1))).astype("float32")
    return x, rng.integers(0, units, samples).astype("int32")


def samples_per_second(name, one_pass, seconds=0.3, min_passes=3):
    """Samples per second of `one_pass()` (a prediction over the problem's samples), repeated
    for at least `seconds` and `min_passes` passes: a single pass of the tutorial MLP is one
    call of about 0.1 ms, too short to time alone, and one of the small CNN (0.1-0.25 s) is at
    the mercy of a slow spell of the machine. How every predict measurement is made."""
    samples = PROBLEMS[name][3]
    passes, start = 0, time.perf_counter()
    while True:
        one_pass()
        passes += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and passes >= min_passes:
            return samples * passes / elapsed


def time_epochs(name, epoch):
    """(seconds of a first call of `epoch()`, then seconds per step over the problem's timed
    epochs): how every native loop is measured."""
    _, _, batch, samples, epochs = PROBLEMS[name]
    start = time.perf_counter()
    epoch()
    first = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(epochs):
        epoch()
    return first, (time.perf_counter() - start) / (epochs * -(-samples // batch))
