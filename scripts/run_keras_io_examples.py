"""Run the Keras-style example scripts of examples/keras_io/ on tripod, unchanged.

Each script keeps `import keras`; this runner starts a fresh interpreter per script and
backend, sets `TRIPOD_BACKEND`, calls `tripod.use_as_keras()` and runs the script as
`__main__` (which trains, then checks what the script claims). A script that names
`BACKENDS = (...)` at its top level (the per-framework custom training loops) runs only there.
It prints one row per run: script, backend, passed/failed/skipped, seconds, the last error line.

    python scripts/run_keras_io_examples.py                    # every script on jax, torch, tensorflow
    python scripts/run_keras_io_examples.py vae nmt_transformer --backends torch
    python scripts/run_keras_io_examples.py --keras            # the same scripts on Keras 3 itself

Exits 1 when any run failed.
"""

import argparse
import ast
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples", "keras_io")

_ON_TRIPOD = (
    "import runpy, sys, tripod\n"
    "tripod.use_as_keras()\n"
    "runpy.run_path(sys.argv[1], run_name='__main__')\n"
)
_ON_KERAS = "import runpy, sys\nrunpy.run_path(sys.argv[1], run_name='__main__')\n"


def scripts():
    """The example scripts' names (file names without `.py`), sorted."""
    return sorted(
        name[:-3]
        for name in os.listdir(EXAMPLES)
        if name.endswith(".py") and not name.startswith("_")
    )


def backends_of(name):
    """The backends a script declares with a top-level `BACKENDS = (...)`, or None for all."""
    with open(os.path.join(EXAMPLES, f"{name}.py")) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "BACKENDS" for t in node.targets
        ):
            return tuple(ast.literal_eval(node.value))
    return None


def last_error_line(text):
    """The exception line of a traceback, else the last non-empty line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in reversed(lines):
        head = line.split(":", 1)[0]
        if head.endswith(("Error", "Exception", "Interrupt")) and " " not in head:
            return line
    return lines[-1] if lines else ""


def run_one(name, backend, timeout, on_keras=False):
    """(status, seconds, last error line) of one script on one backend, in a fresh process."""
    env = dict(os.environ)
    env["KERAS_BACKEND" if on_keras else "TRIPOD_BACKEND"] = backend
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [ROOT, env.get("PYTHONPATH")]))
    code = _ON_KERAS if on_keras else _ON_TRIPOD
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, os.path.join(EXAMPLES, f"{name}.py")],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "failed", time.perf_counter() - start, f"timed out after {timeout} s"
    seconds = time.perf_counter() - start
    if done.returncode == 0:
        return "passed", seconds, ""
    return "failed", seconds, last_error_line(done.stderr or done.stdout)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="scripts to run (default: all)")
    parser.add_argument("--backends", nargs="+", default=["jax", "torch", "tensorflow"])
    parser.add_argument("--timeout", type=float, default=300, help="seconds per script")
    parser.add_argument("--keras", action="store_true", help="run on Keras 3, not tripod")
    args = parser.parse_args(argv)
    names = args.names or scripts()
    unknown = sorted(set(names) - set(scripts()))
    if unknown:
        parser.error(f"no such script in {EXAMPLES}: {', '.join(unknown)}")

    rows, totals = [], {}
    header = f"{'script':<36} {'backend':<11} {'result':<8} {'seconds':>8}  last error line"
    print(header, "-" * len(header), sep="\n", flush=True)
    for backend in args.backends:
        for name in names:
            only = backends_of(name)
            if only is not None and backend not in only:
                status, seconds, error = "skipped", 0.0, f"runs on {', '.join(only)} only"
            else:
                status, seconds, error = run_one(name, backend, args.timeout, args.keras)
            totals[backend] = totals.get(backend, 0.0) + seconds
            rows.append((name, backend, status))
            print(
                f"{name:<36} {backend:<11} {status:<8} {seconds:>8.1f}  {error[:160]}", flush=True
            )
    print()
    for backend, seconds in totals.items():
        ran = [row for row in rows if row[1] == backend and row[2] != "skipped"]
        passed = sum(row[2] == "passed" for row in ran)
        print(f"{backend}: {passed}/{len(ran)} passed in {seconds:.0f} s")
    return 1 if any(row[2] == "failed" for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
