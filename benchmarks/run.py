"""Run the benchmarks on every installed training backend, one process each, threads pinned to 1.

Usage: python -m benchmarks.run [problems, comma-separated] [runs per measurement]
Prints a table of tripod vs the native loop: ms/step, first-epoch seconds, predict samples/s.
"""

import json
import os
import subprocess
import sys

PINNED = {
    "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
    "TF_NUM_INTRAOP_THREADS": "1", "TF_NUM_INTEROP_THREADS": "1",
    "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
}  # fmt: skip


def run_backend(backend, args):
    env = {**os.environ, **PINNED, "TRIPOD_BACKEND": backend}
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-m", "benchmarks.bench_backend", *args], env=env, cwd=root,
                         capture_output=True, text=True)  # fmt: skip
    if out.returncode != 0:
        raise RuntimeError(f"benchmark on {backend} failed:\n{out.stderr[-3000:]}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def table(rows):
    lines = [
        "| backend | problem | tripod ms/step | native ms/step | ratio | first epoch tripod/native (s) | predict tripod/native (samples/s) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['backend']} | {r['problem']} | {r['tripod_ms_per_step']:.3f} | {r['native_ms_per_step']:.3f} | "
            f"{r['step_ratio']:.2f}x | {r['tripod_first_epoch_s']:.2f} / {r['native_first_epoch_s']:.2f} "
            f"({r['first_epoch_ratio']:.2f}x) | {r['tripod_predict_per_s']:.0f} / {r['native_predict_per_s']:.0f} "
            f"({r['predict_ratio']:.2f}x) |"
        )
    return "\n".join(lines)


def main():
    rows = []
    for backend in ("jax", "torch", "tensorflow"):
        rows.extend(run_backend(backend, sys.argv[1:]))
    print(table(rows))


if __name__ == "__main__":
    main()
