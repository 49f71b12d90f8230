"""How `fit` and `predict` are timed for a library with the Keras 3 API (tripod or Keras itself):
the same code for both, so their numbers compare."""

import time

from benchmarks.models import build
from benchmarks.problems import PROBLEMS, samples_per_second, steps


def fit(lib, name, x, y):
    """(seconds of the first epoch, seconds per step after it) for a fresh model's `fit`."""
    problem = PROBLEMS[name]
    model, compile_args = build(lib, name)
    model.compile(**compile_args)
    start = time.perf_counter()
    model.fit(x, y, batch_size=problem.batch, epochs=1, verbose=0)
    first = time.perf_counter() - start
    start = time.perf_counter()
    model.fit(x, y, batch_size=problem.batch, epochs=problem.epochs, verbose=0)
    return first, (time.perf_counter() - start) / (problem.epochs * steps(name))


def predict(lib, name, x):
    """Samples per second of a fresh model's `predict`, after one untimed pass."""
    model, _ = build(lib, name)

    def one_pass():
        return model.predict(x, batch_size=PROBLEMS[name].batch, verbose=0)

    one_pass()
    return samples_per_second(name, one_pass)
