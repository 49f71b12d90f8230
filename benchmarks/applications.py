"""Pretrained-architecture speed: ResNet50 and MobileNetV2 (`weights=None`, 1000 classes) on
batches of 8 224x224x3 images, tripod against Keras 3 on the same backend: milliseconds per
`predict` call and per `train_on_batch` step (the median of the timed calls, after untimed
warm-up calls that trace and compile). One fresh process per library and backend (each picks its
backend at import), threads pinned as in `benchmarks.run`.

Usage: python -m benchmarks.applications [timed calls] [image size]
"""

import json
import os
import subprocess
import sys

from benchmarks.run import BACKENDS, PINNED

MODELS = ("ResNet50", "MobileNetV2")
BATCH = 8

WORKER = """
import json, statistics, sys, time
import numpy as np
import {library} as lib
calls, size = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(0)
x = rng.uniform(0, 255, ({batch}, size, size, 3)).astype("float32")
y = rng.integers(0, 1000, {batch})

def median_ms(fn):
    fn(); fn()  # trace / compile, then one more untimed call
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)

for name in json.loads(sys.argv[3]):
    model = getattr(lib.applications, name)(weights=None, input_shape=(size, size, 3))
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    predict = median_ms(lambda: model.predict(x, batch_size={batch}, verbose=0))
    train = median_ms(lambda: model.train_on_batch(x, y))
    print(json.dumps({{"model": name, "predict_ms": predict, "train_step_ms": train}}))
"""


def measure(library, backend, calls, size):
    """{model: {"predict_ms": ..., "train_step_ms": ...}} for `library` on `backend`."""
    env = {**os.environ, **PINNED, "TRIPOD_BACKEND": backend, "KERAS_BACKEND": backend}
    code = WORKER.format(library=library, batch=BATCH)
    command = [sys.executable, "-c", code, str(calls), str(size), json.dumps(MODELS)]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{library} on {backend} failed:\n{out.stderr[-3000:]}")
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    return {row["model"]: row for row in rows}


def main():
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    size = int(sys.argv[2]) if len(sys.argv) > 2 else 224
    print(
        f"ms per call, batches of {BATCH}x{size}x{size}x3, median of {calls}; ratio: tripod/Keras"
    )
    print(
        "| backend | model | predict tripod | Keras | ratio | train step tripod | Keras | ratio |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for backend in BACKENDS:
        ours = measure("tripod", backend, calls, size)
        theirs = measure("keras", backend, calls, size)
        for name in MODELS:
            a, b = ours[name], theirs[name]
            print(f"| {backend} | {name} | {a['predict_ms']:.1f} | {b['predict_ms']:.1f} | "
                  f"{a['predict_ms'] / b['predict_ms']:.2f}x | {a['train_step_ms']:.1f} | "
                  f"{b['train_step_ms']:.1f} | {a['train_step_ms'] / b['train_step_ms']:.2f}x |")  # fmt: skip


if __name__ == "__main__":
    main()
