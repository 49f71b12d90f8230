"""Run an exported artifact the way a deployment would: in a process that never imports tripod.

    python serve_artifact.py FORMAT ARTIFACT INPUTS.npz OUTPUTS.npz [--endpoint NAME]
        [--inputs NAME ...] [--outputs NAME ...]
    python serve_artifact.py --jobs JOBS.json     (several artifacts, one process)

INPUTS.npz holds arrays "<k>/<i>": input set k (a call; several sets check several batch
sizes in one process), the artifact's i-th input (named by --inputs). OUTPUTS.npz receives
"<k>/<j>", the j-th output in the order of the artifact's outputs (ONNX, torch) or of --outputs
(a SavedModel signature returns a dict). It prints a JSON line naming the frameworks
the run imported, so a test can check that tripod was not among them.

This file is run as a script by `tripod.export.verify` and the tests; it imports nothing from
tripod, and loads the runners of framework artifacts by path from their backend's folder
(`backends/torch/program_runner.py`, `backends/tensorflow/saved_model_runner.py`).
"""

import argparse
import importlib.util
import json
import pathlib
import sys
import traceback

import numpy as np


def onnx_runner(path, job):
    """A function running the ONNX graph in onnxruntime, fed by the graph's own input names."""
    import onnxruntime

    session = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
    names = [node.name for node in session.get_inputs()]
    if job.inputs and names != job.inputs:
        raise ValueError(f"ONNX input names {names} != expected {job.inputs}")
    return lambda arrays: session.run(None, dict(zip(names, arrays)))


#: format -> (the file beside this package's `backends/` holding its runner, the runner's name);
#: framework code stays in its backend's folder, loaded by path (importing tripod would not do)
BACKEND_RUNNERS = {
    "tf_saved_model": ("tensorflow/saved_model_runner.py", "saved_model_runner"),
    "torch": ("torch/program_runner.py", "program_runner"),
}
BACKENDS = pathlib.Path(__file__).resolve().parent.parent / "backends"


def runner(format):
    """The function making a runner for `format` (ONNX here, the others from their backend)."""
    if format == "onnx":
        return onnx_runner
    relative, name = BACKEND_RUNNERS[format]
    spec = importlib.util.spec_from_file_location(f"runner_{format}", BACKENDS / relative)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def read_set(data, k):
    """Set `k` of an npz file of "<k>/<i>" arrays, as a list in order of i."""
    count = sum(key.startswith(f"{k}/") for key in data.files)
    return [data[f"{k}/{i}"] for i in range(count)]


def run_job(job):
    """Run one artifact (`job`: format, artifact, inputs_file, outputs_file, endpoint, inputs,
    outputs) on every input set of its inputs file and write the outputs file."""
    run = runner(job.format)(job.artifact, job)
    results = {}
    with np.load(job.inputs_file) as data:
        sets = 1 + max(int(key.split("/")[0]) for key in data.files)
        for k in range(sets):
            outputs = run(read_set(data, k))
            results.update({f"{k}/{j}": np.asarray(o) for j, o in enumerate(outputs)})
    np.savez(job.outputs_file, **results)


def run_jobs(jobs):
    """Run every job, one after another in this process; {job index: error text} for those
    that failed (the others' outputs files are written)."""
    errors = {}
    for index, job in enumerate(jobs):
        try:
            run_job(job)
        except Exception:  # noqa: BLE001 - each failure is reported for its own artifact
            errors[index] = traceback.format_exc(limit=3)[-4000:]
    return errors


def _parser():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("format", choices=["onnx", *sorted(BACKEND_RUNNERS)])
    parser.add_argument("artifact")
    parser.add_argument("inputs_file")
    parser.add_argument("outputs_file")
    parser.add_argument("--endpoint", default="serve")
    parser.add_argument("--inputs", nargs="*", default=[])
    parser.add_argument("--outputs", nargs="*", default=[])
    return parser


def main(argv=None):
    """Run one artifact (the command line) or several (`--jobs JOBS.json`, a list of the same
    fields as objects), then print which frameworks this process imported and what failed."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--jobs"]:
        with open(argv[1]) as f:
            jobs = [argparse.Namespace(**job) for job in json.load(f)]
    else:
        jobs = [_parser().parse_args(argv)]
    errors = run_jobs(jobs)
    frameworks = ("tripod", "torch", "jax", "tensorflow", "onnxruntime")
    imported = [name for name in frameworks if name in sys.modules]
    print(json.dumps({"imported": imported, "errors": errors}))
    if errors and len(jobs) == 1:
        sys.stderr.write(errors[0])
        raise SystemExit(1)


if __name__ == "__main__":
    main()
