"""`verify`: run an exported artifact without tripod and compare it with `model.predict`."""

import dataclasses
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

from tripod.backends.common import tree
from tripod.backends.common.compare import compare
from tripod.export import serve_artifact
from tripod.export.model_export import serving_function


class ExportMismatch(AssertionError):
    """An artifact's outputs differ from the model's beyond the tolerance (or it failed to run)."""


@dataclasses.dataclass
class VerifyReport:
    """What `verify` found: per output, the largest absolute and relative difference."""

    path: str
    format: str
    comparisons: list
    imported: list

    @property
    def max_abs_diff(self):
        """The largest |artifact - predict| over every output."""
        return max((c.max_abs or 0.0 for c in self.comparisons), default=0.0)

    @property
    def max_rel_diff(self):
        """The largest relative difference over every output."""
        return max((c.max_rel or 0.0 for c in self.comparisons), default=0.0)

    @property
    def ok(self):
        """Whether every output is within tolerance."""
        return all(c.ok for c in self.comparisons)

    def __str__(self):
        head = (
            f"{self.path} ({self.format}): max abs diff {self.max_abs_diff:.3g}, "
            f"max rel diff {self.max_rel_diff:.3g}"
        )
        lines = [head]
        lines += [f"  {c.name}: {c.describe()}" for c in self.comparisons if not c.ok]
        return "\n".join(lines)


def format_of(path):
    """The export format an artifact's path implies (a folder is a SavedModel)."""
    if os.path.isdir(path):
        return "tf_saved_model"
    if os.fspath(path).endswith(".onnx"):
        return "onnx"
    if os.fspath(path).endswith(".pt2"):
        return "torch"
    raise ValueError(
        f"Cannot tell the format of {path!r}: pass format='onnx', 'torch' or 'tf_saved_model'."
    )


def verify(
    path,
    model,
    inputs,
    format=None,
    batch_sizes=None,
    atol=1e-5,
    rtol=1e-5,
    input_signature=None,
    timeout=300,
):
    """Run the artifact at `path` on `inputs` in a fresh Python process that does not import
    tripod (onnxruntime, `tf.saved_model.load` or `torch.export.load`) and compare its outputs
    with `model.predict(inputs)`.

    `batch_sizes` (e.g. `(1, 5)`) runs it once per size instead, on the inputs' rows repeated or
    cut to that many, to check a dynamic batch. Returns a `VerifyReport`; raises
    `ExportMismatch` when an output differs by more than `atol + rtol * |expected|` or the
    artifact fails to run.
    """
    (found,) = verify_many(
        [(path, model, inputs, format)], batch_sizes, atol, rtol, input_signature, timeout
    )
    if isinstance(found, Exception):
        raise found
    return found


def verify_many(
    artifacts, batch_sizes=None, atol=1e-5, rtol=1e-5, input_signature=None, timeout=600
):
    """`verify` for several `(path, model, inputs, format)` artifacts, run in one process
    without tripod (a framework is imported once, not per artifact); one `VerifyReport` or
    `ExportMismatch` (returned, not raised) per artifact, in order."""
    checks = [
        _Check(path, model, inputs, format, batch_sizes, input_signature)
        for path, model, inputs, format in artifacts
    ]
    with tempfile.TemporaryDirectory() as folder:
        jobs = [check.job(folder, index) for index, check in enumerate(checks)]
        imported, errors = _run_jobs(jobs, folder, timeout)
        return [
            ExportMismatch(f"The artifact at {check.path} failed to run:\n{errors[str(index)]}")
            if str(index) in errors
            else check.report(jobs[index]["outputs_file"], imported, atol, rtol)
            for index, check in enumerate(checks)
        ]


class _Check:
    """One artifact to verify: its input sets, and the model's expected outputs for each."""

    def __init__(self, path, model, inputs, format, batch_sizes, input_signature):
        self.path = os.fspath(path)
        self.format = format or format_of(path)
        self.model = model
        self.endpoint = serving_function(model, input_signature)
        self.batch_sizes = batch_sizes
        self.sets = [inputs] if batch_sizes is None else [_resized(inputs, n) for n in batch_sizes]
        self.flat_sets = [[np.asarray(a) for a in tree.flatten(one)] for one in self.sets]
        if len(self.flat_sets[0]) != len(self.endpoint.specs):
            raise ValueError(
                f"The model takes {len(self.endpoint.specs)} inputs; received "
                f"{len(self.flat_sets[0])}."
            )

    def job(self, folder, index):
        """The runner's job for this artifact, its input sets written to `folder`."""
        inputs_file = os.path.join(folder, f"inputs_{index}.npz")
        np.savez(
            inputs_file,
            **{
                f"{k}/{i}": a
                for k, arrays in enumerate(self.flat_sets)
                for i, a in enumerate(arrays)
            },
        )
        return {
            "format": self.format,
            "artifact": os.path.abspath(self.path),
            "inputs_file": inputs_file,
            "outputs_file": os.path.join(folder, f"outputs_{index}.npz"),
            "endpoint": self.endpoint.name,
            "inputs": [s.name for s in self.endpoint.specs],
            "outputs": self.endpoint.output_names,
        }

    def report(self, outputs_file, imported, atol, rtol):
        """The artifact's outputs compared with `model.predict`: a report, or the mismatch."""
        with np.load(outputs_file) as data:
            outputs = [serve_artifact.read_set(data, k) for k in range(len(self.sets))]
        comparisons = []
        for k, (one, got) in enumerate(zip(self.sets, outputs)):
            expected = [np.asarray(y) for y in tree.flatten(self.model.predict(one, verbose=0))]
            if len(got) != len(expected):
                return ExportMismatch(
                    f"The artifact at {self.path} returned {len(got)} "
                    f"outputs; the model {len(expected)}."
                )
            label = "" if self.batch_sizes is None else f" (batch {self.batch_sizes[k]})"
            comparisons += [
                compare(name + label, "output", self.format, np.asarray(g), want, atol, rtol)
                for name, g, want in zip(self.endpoint.output_names, got, expected)
            ]
        report = VerifyReport(self.path, self.format, comparisons, imported)
        if not report.ok:
            return ExportMismatch(f"The artifact disagrees with model.predict:\n{report}")
        return report


def _resized(inputs, rows):
    """`inputs` with every array's rows repeated (or cut) to `rows`."""

    def resize(a):
        a = np.asarray(a)
        return np.resize(a, (rows,) + a.shape[1:]) if a.shape[0] != rows else a

    return tree.map_structure(resize, inputs)


def _run_jobs(jobs, folder, timeout):
    """Run the jobs in one process without tripod: (frameworks it imported, {index: error})."""
    jobs_file = os.path.join(folder, "jobs.json")
    with open(jobs_file, "w") as f:
        json.dump(jobs, f)
    command = [sys.executable, serve_artifact.__file__, "--jobs", jobs_file]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=folder,
        env=_without_tripod_path(),
        check=False,
    )
    if done.returncode != 0:
        raise ExportMismatch(f"The artifact runner failed:\n{done.stderr[-4000:]}")
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return found["imported"], found["errors"]


def _without_tripod_path():
    """This environment minus a PYTHONPATH entry that would make tripod importable by accident."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    return env
