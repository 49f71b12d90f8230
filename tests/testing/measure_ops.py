"""Measure how far each backend's ops are from the numpy reference, per op class and tolerance.

`TRIPOD_BACKEND=numpy python -m tests.testing.measure_ops` runs every case of the ops parity
suite (tests/backends/ops) on every installed backend in this one process and prints, per test
module and tolerance, the worst absolute and relative differences and the largest share of the
tolerance any element used. docs/parity.md quotes its output; the suite itself asserts the
tolerances on each backend's run.
"""

import importlib

import numpy as np

from tests.backends.ops import harness
from tripod.backends import load
from tripod.testing.parity import installed_backends

MODULES = (
    "test_core",
    "test_numpy_ops",
    "test_numpy_ops_arrays",
    "test_math",
    "test_nn",
    "test_linalg",
    "test_image",
)


def _leaves(value):
    if isinstance(value, dict):
        return [leaf for key in sorted(value) for leaf in _leaves(value[key])]
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in _leaves(item)]
    return [np.asarray(value)]


def _worst(actual, expected, atol, rtol):
    """(max |a - r|, max |a - r| / |r| over r != 0, max |a - r| / (atol + rtol |r|))."""
    worst = [0.0, 0.0, 0.0]
    for a, r in zip(_leaves(actual), _leaves(expected)):
        if r.dtype.kind not in "biufc" or r.size == 0:
            continue
        a, r = a.astype(np.complex128), r.astype(np.complex128)
        with np.errstate(invalid="ignore", divide="ignore"):
            same = (a == r) | (np.isnan(a) & np.isnan(r))
            diff = np.where(same, 0.0, np.abs(a - r))
            rel = np.where(r != 0, diff / np.abs(r), 0.0)
            used = diff / (atol + rtol * np.abs(r))
        for i, values in enumerate((diff, rel, used)):
            worst[i] = max(worst[i], float(np.nanmax(values)))
    return worst


def measure(backends):
    """{(module, atol, rtol): [cases, max abs, max rel, max share of tolerance]}."""
    table = {}
    for module in MODULES:
        cases = importlib.import_module(f"tests.backends.ops.{module}").CASES
        for case in cases:
            expected = case.run_on(harness.REFERENCE)
            row = table.setdefault((module, case.atol, case.rtol), [0, 0.0, 0.0, 0.0])
            row[0] += 1
            for backend in backends:
                found = _worst(case.run_on(backend), expected, case.atol, case.rtol)
                row[1:] = [max(x, y) for x, y in zip(row[1:], found)]
    return table


def main():
    backends = [load(name) for name in installed_backends() if name != "numpy"]
    print("| module | atol / rtol | cases | max abs diff | max rel diff | share of tolerance |")
    print("|---|---|---|---|---|---|")
    for (module, atol, rtol), (count, diff, rel, used) in measure(backends).items():
        print(f"| {module} | {atol:g} / {rtol:g} | {count} | {diff:.2g} | {rel:.2g} | {used:.2g} |")


if __name__ == "__main__":
    main()
