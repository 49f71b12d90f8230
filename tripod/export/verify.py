"""`verify`: run an exported artifact without tripod and compare it with `model.predict`."""

import dataclasses
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

from tripod.backends.common import tree
from tripod.export import serve_artifact
from tripod.export.model_export import serving_function
from tripod.backends.common.compare import compare


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
        lines = [f"{self.path} ({self.format}): max abs diff {self.max_abs_diff:.3g}, "
                 f"max rel diff {self.max_rel_diff:.3g}"]  # fmt: skip
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
    raise ValueError(f"Cannot tell the format of {path!r}: pass format='onnx', 'torch' or "
                     "'tf_saved_model'.")  # fmt: skip


def verify(path, model, inputs, format=None, batch_sizes=None, atol=1e-5, rtol=1e-5,
           input_signature=None, timeout=300):  # fmt: skip
    """Run the artifact at `path` on `inputs` in a fresh Python process that does not import
    tripod (onnxruntime, `tf.saved_model.load` or `torch.export.load`) and compare its outputs
    with `model.predict(inputs)`.

    `batch_sizes` (e.g. `(1, 5)`) runs it once per size instead, on the inputs' rows repeated or
    cut to that many, to check a dynamic batch. Returns a `VerifyReport`; raises
    `ExportMismatch` when an output differs by more than `atol + rtol * |expected|` or the
    artifact fails to run.
    """
    format = format or format_of(path)
    endpoint = serving_function(model, input_signature)
    sets = [inputs] if batch_sizes is None else [_resized(inputs, n) for n in batch_sizes]
    flat_sets = [[np.asarray(a) for a in tree.flatten(one)] for one in sets]
    if len(flat_sets[0]) != len(endpoint.specs):
        raise ValueError(f"The model takes {len(endpoint.specs)} inputs; received "
                         f"{len(flat_sets[0])}.")  # fmt: skip
    outputs, imported = run_artifact(path, format, flat_sets, endpoint, timeout)
    comparisons = []
    for k, (one, got) in enumerate(zip(sets, outputs)):
        expected = [np.asarray(y) for y in tree.flatten(model.predict(one, verbose=0))]
        if len(got) != len(expected):
            raise ExportMismatch(f"The artifact returned {len(got)} outputs; the model "
                                 f"{len(expected)}.")  # fmt: skip
        label = "" if batch_sizes is None else f" (batch {batch_sizes[k]})"
        comparisons += [
            compare(name + label, "output", format, np.asarray(g), want, atol, rtol)
            for name, g, want in zip(endpoint.output_names, got, expected)
        ]
    report = VerifyReport(os.fspath(path), format, comparisons, imported)
    if not report.ok:
        raise ExportMismatch(f"The artifact disagrees with model.predict:\n{report}")
    return report


def _resized(inputs, rows):
    """`inputs` with every array's rows repeated (or cut) to `rows`."""
    def resize(a):
        a = np.asarray(a)
        return np.resize(a, (rows,) + a.shape[1:]) if a.shape[0] != rows else a

    return tree.map_structure(resize, inputs)


def run_artifact(path, format, input_sets, endpoint, timeout=300):
    """(outputs per input set, frameworks the run imported) of the artifact, run in a process
    without tripod."""
    with tempfile.TemporaryDirectory() as folder:
        inputs_file = os.path.join(folder, "inputs.npz")
        outputs_file = os.path.join(folder, "outputs.npz")
        np.savez(inputs_file, **{f"{k}/{i}": a for k, arrays in enumerate(input_sets)
                                 for i, a in enumerate(arrays)})  # fmt: skip
        command = [sys.executable, serve_artifact.__file__, format, os.path.abspath(path),
                   inputs_file, outputs_file, "--endpoint", endpoint.name,
                   "--inputs", *[s.name for s in endpoint.specs],
                   "--outputs", *endpoint.output_names]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              cwd=folder, env=_without_tripod_path())  # fmt: skip
        if done.returncode != 0:
            raise ExportMismatch(f"The artifact at {path} failed to run:\n{done.stderr[-4000:]}")
        with np.load(outputs_file) as data:
            outputs = [serve_artifact.read_set(data, k) for k in range(len(input_sets))]
        return outputs, json.loads(done.stdout.strip().splitlines()[-1])["imported"]


def _without_tripod_path():
    """This environment minus a PYTHONPATH entry that would make tripod importable by accident."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    return env
