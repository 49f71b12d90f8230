"""Augmentation throughput: images/s of a few image augmentation layers, tripod against Keras 3
on the same backend, eager calls and inside a `tf.data` map. One fresh process per library and
backend (each picks its backend at import), threads pinned as in `benchmarks.run`.

Usage: python -m benchmarks.augmentation [calls per measurement]
"""

import json
import os
import subprocess
import sys

from benchmarks.run import PINNED

LAYERS = {
    "RandomFlip": {},
    "RandomRotation": {"factor": 0.2},
    "RandomZoom": {"height_factor": 0.2},
    "RandomTranslation": {"height_factor": 0.1, "width_factor": 0.1},
    "RandomContrast": {"factor": 0.3},
    "RandomBrightness": {"factor": 0.3},
}
BATCH, SIZE = 32, 64

WORKER = """
import json, sys, time
import numpy as np
import {library} as lib
import tensorflow as tf
calls = int(sys.argv[1])
images = np.random.RandomState(0).uniform(0, 255, ({batch}, {size}, {size}, 3)).astype("float32")
for name, kwargs in json.loads(sys.argv[2]).items():
    layer = getattr(lib.layers, name)(seed=1, **kwargs)
    tensor = lib.ops.convert_to_tensor(images)
    lib.ops.convert_to_numpy(layer(tensor, training=True))  # build, warm up
    start = time.perf_counter()
    for _ in range(calls):
        out = layer(tensor, training=True)
    lib.ops.convert_to_numpy(out)
    eager = calls * {batch} / (time.perf_counter() - start)
    data = tf.data.Dataset.from_tensors(images).repeat(calls + 1).map(lambda x: layer(x, training=True))
    iterator = iter(data)
    next(iterator)  # trace
    start = time.perf_counter()
    for _ in range(calls):
        next(iterator)
    piped = calls * {batch} / (time.perf_counter() - start)
    print(json.dumps({{"layer": name, "eager": eager, "tf_data": piped}}))
"""


def measure(library, backend, calls):
    """{layer: {"eager": images/s, "tf_data": images/s}} for `library` on `backend`."""
    env = {**os.environ, **PINNED, "TRIPOD_BACKEND": backend, "KERAS_BACKEND": backend}
    code = WORKER.format(library=library, batch=BATCH, size=SIZE)
    out = subprocess.run([sys.executable, "-c", code, str(calls), json.dumps(LAYERS)], env=env,
                         capture_output=True, text=True, check=False)  # fmt: skip
    if out.returncode != 0:
        raise RuntimeError(f"{library} on {backend} failed:\n{out.stderr[-3000:]}")
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    return {row["layer"]: row for row in rows}


def main():
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(f"images/s, batches of {BATCH}x{SIZE}x{SIZE}x3, {calls} calls (ratio: tripod / Keras 3)")
    print(
        "| backend | layer | eager tripod | eager Keras | ratio | tf.data tripod | tf.data Keras | ratio |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for backend in ("jax", "torch", "tensorflow"):
        ours, theirs = measure("tripod", backend, calls), measure("keras", backend, calls)
        for name in LAYERS:
            a, b = ours[name], theirs[name]
            print(f"| {backend} | {name} | {a['eager']:.0f} | {b['eager']:.0f} | {a['eager'] / b['eager']:.2f}x "
                  f"| {a['tf_data']:.0f} | {b['tf_data']:.0f} | {a['tf_data'] / b['tf_data']:.2f}x |")  # fmt: skip


if __name__ == "__main__":
    main()
