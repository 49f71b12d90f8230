"""The benchmark problems and their data (no tripod import: the native loops and the Keras process
use this too)."""

import time
from typing import NamedTuple

import numpy as np


class Problem(NamedTuple):
    """One benchmark problem: its input, targets, and how much of it is timed."""

    shape: tuple  # one sample's input shape
    units: int  # output units
    batch: int
    samples: int  # per epoch
    epochs: int  # epochs timed after the first
    target: str = "classes"  # "regression", "binary" (0/1 floats) or "classes" (int labels)
    vocab: int = 0  # token ids in [0, vocab) as inputs when set; floats otherwise


# Sizes keep one run of every problem on every backend practical on a 2-core CPU: the three new
# problems time 1-2 epochs of 5-10 steps after the first epoch.
PROBLEMS = {
    "tutorial_mlp": Problem((10,), 1, 1000, 1000, 300, target="regression"),
    "mnist_mlp": Problem((784,), 10, 128, 2560, 5),
    "small_cnn": Problem((28, 28, 1), 10, 128, 1280, 2),
    "transformer": Problem((128,), 2, 32, 320, 2, vocab=20000),
    "resnet": Problem((32, 32, 3), 10, 64, 320, 1),
    "lstm": Problem((100,), 1, 64, 320, 2, target="binary", vocab=10000),
}


# (seconds, passes): predict is timed over at least this long and this many passes
PREDICT_WINDOW = [0.3, 3]


def shrink_all(batch=16, samples=32):
    """Shrink every problem in place to a tiny size (two batches, one timed epoch, predict timed
    over one pass): smoke tests."""
    for name, problem in PROBLEMS.items():
        PROBLEMS[name] = problem._replace(batch=batch, samples=samples, epochs=1)
    PREDICT_WINDOW[:] = [0, 1]


def data(name):
    """Fixed synthetic data for a problem: (x, y) NumPy arrays."""
    problem = PROBLEMS[name]
    rng = np.random.default_rng(0)
    if problem.vocab:
        x = rng.integers(0, problem.vocab, (problem.samples,) + problem.shape).astype("int32")
    else:
        x = rng.standard_normal((problem.samples,) + problem.shape).astype("float32")
    if problem.target == "regression":
        w = rng.standard_normal((problem.shape[0], 1)).astype("float32")
        return x, (x @ w + 0.1 * rng.standard_normal((problem.samples, 1))).astype("float32")
    if problem.target == "binary":
        return x, rng.integers(0, 2, (problem.samples, 1)).astype("float32")
    return x, rng.integers(0, problem.units, problem.samples).astype("int32")


def steps(name):
    """Training steps in one epoch."""
    problem = PROBLEMS[name]
    return -(-problem.samples // problem.batch)


def samples_per_second(name, one_pass):
    """Samples per second of `one_pass()` (a prediction over the problem's samples), repeated
    for at least PREDICT_WINDOW's seconds and passes: a single pass of the tutorial MLP is one
    call of about 0.1 ms, too short to time alone, and one of the small CNN (0.1-0.25 s) is at
    the mercy of a slow spell of the machine. How every predict measurement is made."""
    samples, (seconds, min_passes) = PROBLEMS[name].samples, PREDICT_WINDOW
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
    epochs = PROBLEMS[name].epochs
    start = time.perf_counter()
    epoch()
    first = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(epochs):
        epoch()
    return first, (time.perf_counter() - start) / (epochs * steps(name))
