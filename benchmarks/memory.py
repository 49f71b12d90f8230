"""Peak resident memory of a process that fits a problem: tripod's `fit` vs the native loop (and
Keras 3's `fit`).

Each run is a fresh interpreter that imports only what it needs (the native and Keras ones never
import tripod), fits the problem once and reports its peak RSS. Usage:
python -m benchmarks.memory [problems, comma-separated] [--keras]
"""

import importlib
import json
import os
import resource
import subprocess
import sys

from benchmarks.run import ALL_PROBLEMS, BACKENDS, PINNED, ROOT


def child(backend, side, name):
    """Fit `name` once on `side` (tripod, native or keras) and print the peak RSS in MiB."""
    x, y = importlib.import_module("benchmarks.problems").data(name)
    importlib.import_module("benchmarks.worker").tasks(side, backend)["fit"](name, x, y)
    print(json.dumps({"peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def peak(backend, side, name):
    """Peak RSS in MiB of a fresh process fitting `name` on `side`."""
    env = {**os.environ, **PINNED, "TRIPOD_BACKEND": backend, "KERAS_BACKEND": backend}
    out = subprocess.run([sys.executable, "-m", "benchmarks.memory", "--child", backend, side, name],
                         env=env, cwd=ROOT, capture_output=True, text=True, check=False)  # fmt: skip
    if out.returncode != 0:
        raise RuntimeError(f"memory run {backend}/{side}/{name} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])["peak_mib"]


def main(problems, keras):
    sides = ["tripod", "native"] + ["keras"] * keras
    print(f"| backend | problem | peak RSS (MiB) {' / '.join(sides)} | tripod / native |")
    print("|---|---|---|---|")
    for backend in BACKENDS:
        for name in problems:
            peaks = [peak(backend, side, name) for side in sides]
            values = " / ".join(f"{p:.0f}" for p in peaks)
            print(f"| {backend} | {name} | {values} | {peaks[0] / peaks[1]:.2f}x |", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(*sys.argv[2:5])
    else:
        names = [a for a in sys.argv[1:] if not a.startswith("--")]
        main(names[0].split(",") if names else ALL_PROBLEMS, "--keras" in sys.argv)
