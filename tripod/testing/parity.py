"""`check_backend_parity`: run one checkpoint on several backends, each in its own subprocess,
and compare their outputs with the reference backend's."""

import concurrent.futures
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

from tripod.backends import config
from tripod.backends.common.compare import compare, missing
from tripod.testing.report import ParityReport
from tripod.training.model import Model

#: every backend tripod knows, in the order they run and appear in reports
ORDER = ("numpy", "jax", "torch", "tensorflow")
#: how many backend subprocesses run at once
PARALLEL = 2
#: how many lines of a failed backend's stderr the report keeps
STDERR_LINES = 15


def installed_backends():
    """The backends whose framework is importable, found without importing any of them."""
    return [name for name in ORDER if importlib.util.find_spec(config.FRAMEWORKS[name][0])]


def _check_backend(name):
    if name not in ORDER:
        raise ValueError(f"Unknown backend {name!r}; valid backends are: {', '.join(ORDER)}.")
    if not importlib.util.find_spec(config.FRAMEWORKS[name][0]):
        raise ValueError(
            f"Backend {name!r} is not installed; install it with: "
            f"pip install 'tripod[{config.FRAMEWORKS[name][1]}]'"
        )
    return name


def choose_backends(backends=None, reference=None):
    """(backends to run, reference): the reference runs too; at least two backends are needed."""
    if isinstance(backends, str):
        backends = backends.split(",")
    chosen = installed_backends() if backends is None else [_check_backend(b) for b in backends]
    chosen = list(dict.fromkeys(chosen))
    if reference is None:
        if not chosen:
            raise ValueError("check_backend_parity: `backends` is empty.")
        reference = "numpy" if "numpy" in chosen else chosen[0]
    elif _check_backend(reference) not in chosen:
        chosen.insert(0, reference)
    if len(chosen) < 2:
        raise ValueError(
            f"check_backend_parity needs two backends to compare, got only {chosen}; "
            "install another backend (e.g. pip install 'tripod[jax]')."
        )
    return chosen, reference


def _model_file(model_or_path, folder):
    """The `.keras` file to load: the path given, or the model saved into `folder`."""
    if isinstance(model_or_path, Model):
        if not model_or_path.built:
            raise ValueError(
                f"check_backend_parity: model '{model_or_path.name}' is not built; give it an "
                "Input or call it on data first."
            )
        path = os.path.join(folder, "model.keras")
        model_or_path.save(path)
        return path
    if not isinstance(model_or_path, (str, os.PathLike)):
        raise TypeError(
            "check_backend_parity expects a built tripod Model or the path of a '.keras' file, "
            f"received {type(model_or_path).__name__}."
        )
    path = os.path.abspath(os.fspath(model_or_path))
    if not os.path.isfile(path):
        raise ValueError(f"check_backend_parity: no model file at {path!r}.")
    return path


def npz_layout(keys):
    """How an `.npz` of inputs maps to `predict`'s argument, from its keys.

    `x` alone: one array; `x0`, `x1`, ...: a list in that order; anything else: a dict keyed by
    the model's input names.
    """
    keys = set(keys)
    if keys == {"x"}:
        return "array"
    if keys and keys == {f"x{i}" for i in range(len(keys))}:
        return "list"
    return "dict"


def _as_arrays(inputs):
    """(arrays keyed as `npz_layout` reads them, layout) for an array, a list or a dict."""
    if isinstance(inputs, (str, os.PathLike)):
        path = os.fspath(inputs)
        if not os.path.isfile(path):
            raise ValueError(f"check_backend_parity: no inputs file at {path!r}.")
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
        if not arrays:
            raise ValueError(f"check_backend_parity: the inputs file {path!r} holds no arrays.")
        return arrays, npz_layout(arrays)
    if isinstance(inputs, dict):
        arrays, layout = {str(k): np.asarray(v) for k, v in inputs.items()}, "dict"
    elif isinstance(inputs, (list, tuple)):
        arrays, layout = {f"x{i}": np.asarray(v) for i, v in enumerate(inputs)}, "list"
    else:
        arrays, layout = {"x": np.asarray(inputs)}, "array"
    if any(a.dtype == object for a in arrays.values()):
        raise TypeError(
            "check_backend_parity: `inputs` must be an array, a list or dict of arrays, or the "
            f"path of an .npz file; received {type(inputs).__name__}."
        )
    return arrays, layout


def _run_worker(backend, job_path, timeout):
    """Run the worker for `backend`; return None, or the error that stopped it."""
    command = [sys.executable, "-m", "tripod.testing.worker", job_path]
    env = {**os.environ, "TRIPOD_BACKEND": backend}
    try:
        out = subprocess.run(
            command, env=env, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout} s"
    if out.returncode != 0:
        tail = "\n".join(out.stderr.strip().splitlines()[-STDERR_LINES:])
        return f"exit code {out.returncode}\n{tail}"
    return None


def _read_results(folder, backend):
    """(`{(kind, name): array}` in the worker's order, notes) written by `backend`'s worker."""
    stem = os.path.join(folder, backend)
    with open(stem + ".json") as f:
        written = json.load(f)
    with np.load(stem + ".npz", allow_pickle=False) as data:
        arrays = {
            (entry["kind"], entry["name"]): data[str(i)]
            for i, entry in enumerate(written["entries"])
        }
    return arrays, written["notes"]


def _compare_backend(backend, results, reference, atol, rtol):
    """The comparisons of one backend's results with the reference's."""
    found = []
    for key, expected in reference.items():
        if key in results:
            found.append(compare(key[1], key[0], backend, results[key], expected, atol, rtol))
        else:
            found.append(missing(key[1], key[0], backend, "the reference"))
    found += [missing(k[1], k[0], backend, backend) for k in results if k not in reference]
    return found


def _check_arguments(atol, rtol, timeout, imports):
    if not (atol >= 0 and rtol >= 0):
        raise ValueError(f"check_backend_parity: atol and rtol must be >= 0, got {atol}, {rtol}.")
    if not timeout > 0:
        raise ValueError(f"check_backend_parity: timeout must be positive, got {timeout}.")
    imports = [imports] if isinstance(imports, str) else list(imports)
    if not all(isinstance(m, str) and m for m in imports):
        raise TypeError(f"check_backend_parity: `imports` must be module names, got {imports!r}.")
    return imports


def check_backend_parity(
    model_or_path,
    inputs,
    backends=None,
    reference=None,
    atol=1e-5,
    rtol=1e-5,
    per_layer=False,
    imports=(),
    timeout=300,
):
    """Run a model on several backends from one checkpoint and compare them with a reference.

    Each backend runs in its own subprocess: it loads the checkpoint with
    `tripod.saving.load_model` in safe mode (no code from the file runs), predicts on `inputs`
    and hands its outputs back. Element `a` of a backend agrees with element `r` of the
    reference when `|a - r| <= atol + rtol * |r|` (numpy's `allclose`); a different shape or
    dtype, a NaN the reference does not have, or a backend that fails to run is a violation too.

    Args:
        model_or_path: a built tripod `Model` (saved to a temporary `.keras` file) or the path of
            a `.keras` file.
        inputs: what `model.predict` takes (an array, a list or dict of arrays), or the path of an
            `.npz` file: key `x` for one input, `x0`, `x1`, ... for a list, else input names.
        backends: backend names (a list or a comma-separated string); default every installed
            one of numpy, jax, torch, tensorflow.
        reference: the backend the others are compared with; default numpy if it runs, else the
            first backend. It runs even when `backends` does not name it.
        atol: the absolute tolerance, per element.
        rtol: the relative tolerance, per element.
        per_layer: also compare every layer call's output (Functional and Sequential models;
            for a subclassed model the report says it was skipped).
        imports: modules each subprocess imports before loading the model, where custom layers
            register themselves with `register_keras_serializable`; importable from the
            current directory or installed.
        timeout: seconds each backend may take.

    Returns:
        A `ParityReport`: print it for a table, check `.ok`, or call `.raise_for_violations()`.

    Raises:
        ValueError: a negative tolerance or timeout, or an unknown or uninstalled backend.
        TypeError: `imports` are not module names.

    Examples:
        >>> from tripod.testing import check_backend_parity
        >>> model = tripod.Sequential([tripod.Input((3,)), tripod.layers.Dense(2)])
        >>> report = check_backend_parity(model, np.ones((4, 3), "float32"), backends="numpy,jax")
        >>> report.ok, report.reference, report.backends
        (True, 'numpy', ['numpy', 'jax'])

        With every installed backend (the default), `print(report)` shows the largest
        absolute and relative difference of each backend's outputs from numpy's.
    """
    imports = _check_arguments(atol, rtol, timeout, imports)
    backends, reference = choose_backends(backends, reference)
    arrays, layout = _as_arrays(inputs)
    with tempfile.TemporaryDirectory(prefix="tripod-parity-") as folder:
        inputs_path = os.path.join(folder, "inputs.npz")
        np.savez(inputs_path, **arrays)
        job = {
            "model": _model_file(model_or_path, folder),
            "inputs": inputs_path,
            "layout": layout,
            "per_layer": bool(per_layer),
            "imports": imports,
            "folder": folder,
        }
        job_path = os.path.join(folder, "job.json")
        with open(job_path, "w") as f:
            json.dump(job, f)
        # Start the slowest frameworks to import (the end of ORDER) first: a shorter wall time.
        slowest_first = sorted(backends, key=ORDER.index, reverse=True)
        with concurrent.futures.ThreadPoolExecutor(PARALLEL) as pool:
            ran = pool.map(lambda b: _run_worker(b, job_path, timeout), slowest_first)
            errors = dict(zip(slowest_first, ran))
        results, notes = {}, []
        for backend in (b for b in backends if errors[b] is None):
            results[backend], found = _read_results(folder, backend)
            notes += [note for note in found if note not in notes]
    return _report(backends, reference, atol, rtol, results, errors, notes)


def _report(backends, reference, atol, rtol, results, errors, notes):
    """The `ParityReport` of every backend's results (or error) against the reference's."""
    report = ParityReport(reference, backends, atol, rtol, notes=notes)
    report.failures = {b: errors[b] for b in backends if errors[b] is not None}
    for kind, arrays in (("output", report.outputs), ("layer", report.layers)):
        for backend, found in results.items():
            arrays[backend] = {name: a for (k, name), a in found.items() if k == kind}
    if reference not in results:
        report.notes.append(f"nothing was compared: the reference backend {reference} failed")
        return report
    for backend in backends:
        if backend != reference and backend in results:
            report.comparisons += _compare_backend(
                backend, results[backend], results[reference], atol, rtol
            )
    return report
