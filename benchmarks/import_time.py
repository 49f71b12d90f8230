"""Time `import tripod` with the backend framework's own import subtracted, per backend.

Each run is a fresh interpreter (bytecode caching allowed, after one warm-up run, as a user's
second run would be) that imports the framework, collects the garbage that import left, then
times `import tripod` alone. Collecting first charges the framework's pending full garbage
collection (about 0.2 s after tensorflow's 435,000 objects) to the framework, instead of to
whichever import comes next. Prints medians. Usage: python -m benchmarks.import_time [runs]
"""

import os
import statistics
import subprocess
import sys

FRAMEWORKS = {"jax": "jax", "torch": "torch", "tensorflow": "tensorflow", "numpy": "numpy"}
TIMED = """import gc, time
start = time.perf_counter(); import {}; gc.collect(); middle = time.perf_counter()
import tripod; print(middle - start, time.perf_counter() - middle)"""


def seconds(backend):
    """(framework import and its garbage collection, then `import tripod`) in wall seconds, in a
    fresh interpreter with TRIPOD_BACKEND=backend."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["TRIPOD_BACKEND"] = backend
    out = subprocess.run([sys.executable, "-c", TIMED.format(FRAMEWORKS[backend])], env=env,
                         capture_output=True, text=True, check=True)  # fmt: skip
    return tuple(float(v) for v in out.stdout.split()[-2:])


def measure(backend, runs):
    """(framework seconds, tripod's own seconds): medians of `runs` fresh interpreters."""
    seconds(backend)  # warm the bytecode caches
    times = [seconds(backend) for _ in range(runs)]
    return tuple(statistics.median(t[i] for t in times) for i in (0, 1))


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print(
        "| backend | import framework + its garbage collection (s) | import tripod after it (s) |"
    )
    print("|---|---|---|")
    for backend in FRAMEWORKS:
        framework, own = measure(backend, runs)
        print(f"| {backend} | {framework:.3f} | {own:.3f} |")


if __name__ == "__main__":
    main()
