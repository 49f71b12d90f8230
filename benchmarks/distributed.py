"""Distributed throughput: samples/s of `fit` on a digit-sized MLP (784 -> 128 -> 10, batch 256)
on one device, under `DataParallel` on 2 devices of one process (jax, tensorflow), and on 2
processes (every backend), as a ratio to one device, per backend, in one run.

On a 2-core CPU machine little gain is possible: the rows say that it runs, and what the
distribution costs. Usage: python -m benchmarks.distributed [samples] [epochs]
"""

import json
import sys
import time

import numpy as np

import tripod
from benchmarks.run import PINNED
from tripod.testing import launch

BACKENDS = ("jax", "torch", "tensorflow")


def throughput(kind, samples, epochs):
    """Samples per second of the epochs after the first (which compiles) under `kind`: None
    (one device) or "data" (DataParallel over every device of the run)."""
    dist = tripod.distribution.DataParallel() if kind else None
    tripod.distribution.set_distribution(dist)
    rng = np.random.default_rng(0)
    x = rng.uniform(size=(samples, 784)).astype("float32")
    y = rng.integers(0, 10, samples)
    model = tripod.Sequential(
        [tripod.Input((784,)), tripod.layers.Dense(128, activation="relu"), tripod.layers.Dense(10)]
    )
    model.compile("sgd", tripod.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(x, y, batch_size=256, epochs=1, verbose=0)
    start = time.perf_counter()
    model.fit(x, y, batch_size=256, epochs=epochs, verbose=0)
    return samples * epochs / (time.perf_counter() - start)


def measure(backend, samples, epochs):
    """{setting: samples/s} on `backend`, each setting in fresh processes."""
    settings = {"1 device": (1, None, "1"), "2 processes": (2, "data", "1")}
    if backend != "torch":  # torch runs one device per process
        settings["2 devices, 1 process"] = (1, "data", "2")
    rates = {}
    for name, (processes, kind, devices) in settings.items():
        env = {**PINNED, "TRIPOD_BACKEND": backend, "TRIPOD_NUM_CPU_DEVICES": devices}
        rates[name] = launch(
            throughput, processes, args=(kind, samples, epochs), env=env, timeout=600
        )[0]
    return rates


def main(samples=8192, epochs=3):
    print("| backend | setting | samples/s | vs 1 device |\n|---|---|---|---|")
    for backend in BACKENDS:
        rates = measure(backend, samples, epochs)
        for name, rate in rates.items():
            print(f"| {backend} | {name} | {rate:.0f} | {rate / rates['1 device']:.2f}x |")
            print(
                json.dumps({"backend": backend, "setting": name, "samples_per_s": rate}),
                file=sys.stderr,
            )


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
