"""Time `import tripod` with the backend framework's own import subtracted, per backend.

Each import runs in a fresh interpreter (bytecode caching allowed, after one warm-up run, as a
user's second run would be); prints the medians. Usage: python -m benchmarks.import_time [runs]
"""

import os
import statistics
import subprocess
import sys

FRAMEWORKS = {"jax": "jax", "torch": "torch", "tensorflow": "tensorflow", "numpy": "numpy"}
TIMED = "import time; start = time.perf_counter(); import {}; print(time.perf_counter() - start)"


def seconds(module, backend):
    """Wall seconds of `import module` in a fresh interpreter with TRIPOD_BACKEND=backend."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["TRIPOD_BACKEND"] = backend
    out = subprocess.run([sys.executable, "-c", TIMED.format(module)], env=env, capture_output=True,
                         text=True, check=True)  # fmt: skip
    return float(out.stdout.split()[-1])


def measure(backend, runs):
    """(framework seconds, tripod seconds): medians of `runs` fresh imports each."""
    framework = FRAMEWORKS[backend]
    seconds(framework, backend), seconds("tripod", backend)  # warm the bytecode caches
    own = statistics.median(seconds(framework, backend) for _ in range(runs))
    total = statistics.median(seconds("tripod", backend) for _ in range(runs))
    return own, total


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print("| backend | import framework (s) | import tripod (s) | tripod's own (s) |")
    print("|---|---|---|---|")
    for backend in FRAMEWORKS:
        own, total = measure(backend, runs)
        print(f"| {backend} | {own:.3f} | {total:.3f} | {total - own:.3f} |")


if __name__ == "__main__":
    main()
