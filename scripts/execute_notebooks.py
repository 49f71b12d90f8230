"""Execute the tutorial notebooks in examples/notebooks/ on one backend, optionally saving outputs.

Usage: python scripts/execute_notebooks.py [--backend torch] [--write] [NOTEBOOK ...]

Each notebook runs top to bottom in a fresh kernel started in its own folder, with this process's
environment and TRIPOD_BACKEND set to --backend (default: the environment's own). Prints each
notebook's execution time; exits non-zero when a cell fails. `--write` saves every notebook that
ran clean in place, with the outputs it just produced: how a maintainer refreshes the committed
outputs (the committed ones come from the torch backend). Needs the `notebooks` extra.
"""

import argparse
import glob
import os
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

NOTEBOOKS = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples", "notebooks"
)

#: plain-text tracebacks (readable in test logs); the kernel's own log only for errors
KERNEL_ARGUMENTS = ["--InteractiveShell.colors=nocolor", "--IPKernelApp.log_level=ERROR"]


def notebook_paths():
    """Every tutorial notebook, in reading order."""
    return sorted(glob.glob(os.path.join(NOTEBOOKS, "*.ipynb")))


def execute(notebook, cwd, backend=None, timeout=300, environment=None):
    """Run `notebook` (a NotebookNode, filled with outputs in place) in a fresh python3 kernel.

    The kernel inherits this process's environment plus `environment`, with TRIPOD_BACKEND set to
    `backend` when one is given; raises `CellExecutionError` at the first failing cell.
    """
    env = {**os.environ, **(environment or {})}
    if backend:
        env["TRIPOD_BACKEND"] = backend
    client = NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name="python3",
        record_timing=False,
        extra_arguments=KERNEL_ARGUMENTS,
    )
    client.execute(cwd=cwd, env=env)
    return notebook


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "notebooks", nargs="*", help="notebook paths (default: every tutorial notebook)"
    )
    parser.add_argument(
        "--backend", help="TRIPOD_BACKEND for the kernel (default: the environment's)"
    )
    parser.add_argument(
        "--write", action="store_true", help="save each notebook with its new outputs"
    )
    parser.add_argument("--timeout", type=int, default=300, help="seconds one cell may run")
    args = parser.parse_args(argv)
    failed = []
    for path in args.notebooks or notebook_paths():
        notebook = nbformat.read(path, as_version=4)
        start = time.perf_counter()
        try:
            execute(notebook, os.path.dirname(os.path.abspath(path)), args.backend, args.timeout)
        except CellExecutionError as error:
            print(f"FAILED {path}:\n{error}", file=sys.stderr)
            failed.append(path)
            continue
        print(f"{time.perf_counter() - start:6.1f} s  {path}")
        if args.write:
            nbformat.write(notebook, path)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
