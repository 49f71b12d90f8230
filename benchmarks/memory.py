"""Peak resident memory of a process that fits a problem: tripod's `fit` vs the native loop.

Each run is a fresh interpreter that imports only what it needs (the native one never imports
tripod), fits the problem once and reports its peak RSS. Usage:
python -m benchmarks.memory [problems, comma-separated]
"""

import importlib
import json
import os
import resource
import subprocess
import sys

from benchmarks.run import PINNED

NATIVE = {"jax": "native_jax", "torch": "native_torch", "tensorflow": "native_tf"}


def child(backend, side, name):
    """Fit `name` once on `side` (tripod or native) and print the peak RSS in MiB."""
    problems = importlib.import_module("benchmarks.problems")
    x, y = problems.data(name)
    if side == "native":
        importlib.import_module(f"benchmarks.{NATIVE[backend]}").fit(name, x, y)
    else:
        importlib.import_module("benchmarks.bench_backend").tripod_fit(name, x, y)
    print(json.dumps({"peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def peak(backend, side, name):
    env = {**os.environ, **PINNED, "TRIPOD_BACKEND": backend}
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-m", "benchmarks.memory", "--child", backend, side, name],
                         env=env, cwd=root, capture_output=True, text=True, check=False)  # fmt: skip
    if out.returncode != 0:
        raise RuntimeError(f"memory run {backend}/{side}/{name} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])["peak_mib"]


def main(problems):
    print("| backend | problem | tripod peak RSS (MiB) | native peak RSS (MiB) | ratio |")
    print("|---|---|---|---|---|")
    for backend in NATIVE:
        for name in problems:
            ours, native = peak(backend, "tripod", name), peak(backend, "native", name)
            print(f"| {backend} | {name} | {ours:.0f} | {native:.0f} | {ours / native:.2f}x |", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(*sys.argv[2:5])
    else:
        main(sys.argv[1].split(",") if len(sys.argv) > 1 else ["tutorial_mlp", "mnist_mlp", "small_cnn"])
