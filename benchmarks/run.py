"""Time tripod against a hand-written native loop and against Keras 3, on each training backend,
threads pinned to 1. Prints a markdown table (and each row as JSON on stderr as it comes).

Usage: python -m benchmarks.run [problems, comma-separated] [runs] [--backends jax,torch] [--no-keras]
    [--jit-compile]

How runs are made fair: per backend, two processes stay up for the whole run, one holding tripod
and the native loop (as before), one holding Keras 3 (`KERAS_BACKEND`, never importing tripod, which
picks its backend at import). Only one of them works at a time; the other waits on its stdin. Each
round measures one problem's fit (or predict) once on every side, the sides in an order that rotates
from round to round, so a slow spell of the shared machine hits all three, and no side always goes
first. Reported values are medians over the rounds; a fit or predict ratio is followed by the range
of the per-round ratios (each round's tripod over the same round's other side).

`--jit-compile` (torch only) times compiled steps: tripod's and Keras's models compiled with
`jit_compile=True` (torch.compile), the native loop's forward pass and loss, and its optimizer
step, under `torch.compile`. The first epoch then includes the compilation. Each problem then gets
workers of its own: torch.compile compiles a frame of code that every model shares (tripod's
`train_step` after a graph break) a limited number of times per process, then runs it eagerly.
"""

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

PINNED = {
    "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
    "TF_NUM_INTRAOP_THREADS": "1", "TF_NUM_INTEROP_THREADS": "1",
    "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
}  # fmt: skip
BACKENDS = ("jax", "torch", "tensorflow")
ALL_PROBLEMS = ("tutorial_mlp", "mnist_mlp", "small_cnn", "transformer", "resnet", "lstm")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Worker:
    """A `benchmarks.worker` process serving some sides on one backend."""

    def __init__(self, backend, sides, tiny=False, jit_compile=False):
        env = {**os.environ, **PINNED, "TRIPOD_BACKEND": backend, "KERAS_BACKEND": backend}
        flags = ["--tiny"] * tiny + ["--jit-compile"] * jit_compile
        command = [sys.executable, "-m", "benchmarks.worker", backend, ",".join(sides), *flags]
        self.log = tempfile.TemporaryFile("w+")  # noqa: SIM115 (the worker's stderr, closed in close())
        self.process = subprocess.Popen(command, env=env, cwd=ROOT, text=True, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.log)  # fmt: skip
        self.backend = backend

    def ask(self, side, problem, task):
        """The worker's JSON answer to one task."""
        self.process.stdin.write(
            json.dumps({"side": side, "problem": problem, "task": task}) + "\n"
        )
        self.process.stdin.flush()
        for line in self.process.stdout:
            if line.startswith("@@reply "):
                return json.loads(line[len("@@reply ") :])
        self.log.seek(0)
        raise RuntimeError(
            f"{side} {task} of {problem} on {self.backend} failed:\n{self.log.read()[-3000:]}"
        )

    def close(self):
        """End the worker: it stops when its stdin closes (a worker that died already is just reaped)."""
        with contextlib.suppress(BrokenPipeError):
            self.process.stdin.close()
        self.process.wait()
        self.log.close()


def rounds(workers, problem, task, runs):
    """{side: [result of each round]}, the sides rotating their order from round to round."""
    sides = list(workers)
    results = {side: [] for side in sides}
    for index in range(runs):
        turn = index % len(sides)
        for side in sides[turn:] + sides[:turn]:
            results[side].append(workers[side].ask(side, problem, task))
    return results


def median(values, index=None):
    """The median of `values`, or of their `index`th items."""
    return statistics.median(v if index is None else v[index] for v in values)


def row(backend, problem, fits, predicts, counts):
    """One table row: medians per side and tripod's ratios to the others."""
    out = {"backend": backend, "problem": problem}
    for side in fits:
        out[f"{side}_ms_per_step"] = median(fits[side], 1) * 1e3
        out[f"{side}_first_epoch_s"] = median(fits[side], 0)
        out[f"{side}_predict_per_s"] = median(predicts[side])
        out[f"{side}_params"] = counts[side]
    for other in [side for side in fits if side != "tripod"]:
        out[f"step_ratio_{other}"] = out["tripod_ms_per_step"] / out[f"{other}_ms_per_step"]
        out[f"first_epoch_ratio_{other}"] = (
            out["tripod_first_epoch_s"] / out[f"{other}_first_epoch_s"]
        )
        out[f"predict_ratio_{other}"] = out["tripod_predict_per_s"] / out[f"{other}_predict_per_s"]
        steps = [ours[1] / theirs[1] for ours, theirs in zip(fits["tripod"], fits[other])]
        predicted = [ours / theirs for ours, theirs in zip(predicts["tripod"], predicts[other])]
        out[f"step_ratio_{other}_range"] = [min(steps), max(steps)]
        out[f"predict_ratio_{other}_range"] = [min(predicted), max(predicted)]
    return out


def measure(backend, problems, runs, keras=True, tiny=False, jit_compile=False):
    """Rows for `problems` on `backend`, `runs` rounds each; yields each row as it is done.
    `jit_compile`: time compiled steps on every side (torch only)."""
    ours = Worker(backend, ["tripod", "native"], tiny, jit_compile)
    workers = {"tripod": ours, "native": ours}
    if keras:
        workers["keras"] = Worker(backend, ["keras"], tiny, jit_compile)
    try:
        for name in problems:
            counts = {side: worker.ask(side, name, "count") for side, worker in workers.items()}
            fits = rounds(workers, name, "fit", runs)
            yield row(backend, name, fits, rounds(workers, name, "predict", runs), counts)
    finally:
        for worker in {id(w): w for w in workers.values()}.values():
            worker.close()


def cell(r, key, fmt, sides):
    """'tripod / native / keras (ratio, ratio)' for one measure of a row."""
    values = " / ".join(format(r[f"{side}_{key}"], fmt) for side in sides)
    ratio_key = {
        "ms_per_step": "step_ratio",
        "first_epoch_s": "first_epoch_ratio",
        "predict_per_s": "predict_ratio",
    }
    ratios = ", ".join(_ratio(r, f"{ratio_key[key]}_{side}") for side in sides[1:])
    return f"{values} ({ratios})"


def _ratio(r, key):
    """'1.05x', with the range of the per-round ratios where the row has it: '1.05x 0.98-1.10'."""
    spread = r.get(f"{key}_range")
    ranged = f" {spread[0]:.2f}-{spread[1]:.2f}" if spread and spread[0] != spread[1] else ""
    return f"{r[key]:.2f}x{ranged}"


def table(rows):
    """The markdown table of `rows`; ratios are tripod's over native's (and Keras's, when run)."""
    sides = [s for s in ("tripod", "native", "keras") if f"{s}_ms_per_step" in rows[0]]
    names = " / ".join(sides) + " (" + ", ".join(f"tripod/{side}" for side in sides[1:]) + ")"
    lines = [
        f"| backend | problem | ms/step {names} | first epoch s {names} | predict samples/s {names} |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['backend']} | {r['problem']} | {cell(r, 'ms_per_step', '.2f', sides)} "
            f"| {cell(r, 'first_epoch_s', '.2f', sides)} | {cell(r, 'predict_per_s', '.0f', sides)} |"
        )
    return "\n".join(lines)


def arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("problems", nargs="?", default=",".join(ALL_PROBLEMS))
    parser.add_argument("runs", nargs="?", type=int, default=3)
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument(
        "--no-keras", action="store_true", help="time tripod against the native loop only"
    )
    parser.add_argument(
        "--jit-compile",
        action="store_true",
        help="torch only: time steps compiled by torch.compile (jit_compile=True) on every side",
    )
    args = parser.parse_args(argv)
    if args.jit_compile and args.backends != "torch":
        parser.error("--jit-compile times torch.compile: it needs --backends torch")
    return args


def main(argv=None):
    args = arguments(argv)
    start, rows = time.perf_counter(), []
    problems = args.problems.split(",")
    groups = [[name] for name in problems] if args.jit_compile else [problems]
    for backend in args.backends.split(","):
        for group in groups:
            for r in measure(backend, group, args.runs, not args.no_keras, False, args.jit_compile):
                print(json.dumps(r), file=sys.stderr, flush=True)
                rows.append(r)
    print(table(rows))
    compiled = ", jit_compile=True" if args.jit_compile else ""
    print(f"\n{args.runs} runs{compiled}, {time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()
