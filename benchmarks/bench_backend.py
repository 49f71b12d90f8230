"""Time tripod against the native loop on the backend named by TRIPOD_BACKEND; print JSON rows."""

import importlib
import json
import sys
import time

import numpy as np

import tripod
from benchmarks.models import tripod_model
from benchmarks.problems import PROBLEMS, data, samples_per_second

NATIVE = {"jax": "native_jax", "torch": "native_torch", "tensorflow": "native_tf"}


def tripod_fit(name, x, y):
    """(seconds of the first epoch, seconds per step after it) for model.fit."""
    _, _, batch, samples, epochs = PROBLEMS[name]
    model, compile_args = tripod_model(name)
    model.compile(**compile_args)
    start = time.perf_counter()
    model.fit(x, y, batch_size=batch, epochs=1, verbose=0)
    first = time.perf_counter() - start
    start = time.perf_counter()
    model.fit(x, y, batch_size=batch, epochs=epochs, verbose=0)
    steps = epochs * -(-samples // batch)
    return first, (time.perf_counter() - start) / steps


def tripod_predict(name, x):
    """Samples per second of model.predict."""
    batch = PROBLEMS[name][2]
    model, _ = tripod_model(name)

    def one_pass():
        return model.predict(x, batch_size=batch, verbose=0)

    one_pass()
    return samples_per_second(name, one_pass)


def interleaved(runs, ours, theirs, *args):
    """Medians of `runs` runs of `ours(*args)` and `theirs(*args)`, alternating the two so that
    a slow spell of this shared machine hits both sides alike."""
    pairs = [(ours(*args), theirs(*args)) for _ in range(runs)]
    return tuple(
        np.median([np.atleast_1d(pair[side]) for pair in pairs], axis=0).tolist() for side in (0, 1)
    )


def main(problems, runs):
    backend = tripod.config.backend()
    native = importlib.import_module(f"benchmarks.{NATIVE[backend]}")
    for name in problems:
        x, y = data(name)
        (t_first, t_step), (n_first, n_step) = interleaved(runs, tripod_fit, native.fit, name, x, y)
        (t_pred,), (n_pred,) = interleaved(runs, tripod_predict, native.predict, name, x)
        print(json.dumps({
            "backend": backend, "problem": name,
            "tripod_ms_per_step": t_step * 1e3, "native_ms_per_step": n_step * 1e3,
            "step_ratio": t_step / n_step,
            "tripod_first_epoch_s": t_first, "native_first_epoch_s": n_first,
            "first_epoch_ratio": t_first / n_first,
            "tripod_predict_per_s": t_pred, "native_predict_per_s": n_pred,
            "predict_ratio": t_pred / n_pred,
        }), flush=True)  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1].split(",") if len(sys.argv) > 1 else list(PROBLEMS), int(sys.argv[2]) if len(sys.argv) > 2 else 3)
