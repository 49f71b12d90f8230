"""What runs inside each backend's subprocess: load the checkpoint, run inference, save outputs.

`python -m tripod.testing.worker JOB.json`, with `TRIPOD_BACKEND` naming the backend. The job
(written by `check_backend_parity`) names the `.keras` file, the inputs `.npz` and its layout,
whether to record every layer's output, the modules to import first and the result folder. The
worker writes `<folder>/<backend>.npz` (arrays `0`, `1`, ...) and `<backend>.json` (their names
and kinds, and notes). The model loads in safe mode: no code from the file ever runs.
"""

import importlib
import json
import os
import sys

import numpy as np

import tripod
from tripod.layers.input_layer import InputLayer
from tripod.training.functional import Functional
from tripod.training.sequential import Sequential


def read_inputs(path, layout):
    """The `.npz` inputs as `model.predict` takes them: layout "array", "list" or "dict"."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {key: data[key] for key in data.files}
    if layout == "array":
        return arrays["x"]
    if layout == "list":
        return [arrays[f"x{i}"] for i in range(len(arrays))]
    return arrays


def output_names(model, outputs):
    """A name per flat output: dict keys, else the output layers' names, else `output_<i>`."""
    if isinstance(outputs, dict):
        return sorted(outputs)
    count = len(tripod.tree.flatten(outputs))
    if not isinstance(model, (Functional, Sequential)):
        return [f"output_{i}" for i in range(count)] if count > 1 else ["output"]
    names = [x._keras_history[0].name for x in model.outputs]
    return [name if names.count(name) == 1 else f"{name}:{i}" for i, name in enumerate(names)]


def layer_calls(model):
    """(name, symbolic outputs) of every layer call in a Functional or Sequential model's graph.

    A layer called more than once is named `name[call i]`; a call with several outputs gives
    `name:0`, `name:1`, ...
    """
    graph = model if isinstance(model, Functional) else Functional(model.input, model.outputs)
    calls, counts = [], {}
    # `_nodes` is the graph's layer calls in execution order (tripod's own Functional plan).
    for node in graph._nodes:
        if isinstance(node.operation, InputLayer):
            continue
        name = node.operation.name
        counts[name] = counts.get(name, 0) + 1
        if counts[name] > 1:
            name = f"{name}[call {counts[name]}]"
        tensors = node.output_tensors
        calls += [(name if len(tensors) == 1 else f"{name}:{i}", x) for i, x in enumerate(tensors)]
    return calls


def per_layer_outputs(model, inputs):
    """Every layer call's output on `inputs`, from a sub-model (None, note) when unsupported."""
    if not isinstance(model, (Functional, Sequential)):
        return None, (
            f"per-layer outputs need a Functional or Sequential model; "
            f"{type(model).__name__} is subclassed, so only its outputs were compared"
        )
    calls = layer_calls(model)
    probe = tripod.Model(model.input, [x for _, x in calls])
    values = probe.predict(inputs, verbose=0)
    return [(name, value) for (name, _), value in zip(calls, values)], None


def run(job):
    """Load, predict, and write this backend's results where the job says."""
    for module in job["imports"]:
        importlib.import_module(module)
    model = tripod.saving.load_model(job["model"], compile=False, safe_mode=True)
    inputs = read_inputs(job["inputs"], job["layout"])
    outputs = model.predict(inputs, verbose=0)
    flat = tripod.tree.flatten(outputs)
    results = [("output", name, value) for name, value in zip(output_names(model, outputs), flat)]
    notes = []
    if job["per_layer"]:
        layers, note = per_layer_outputs(model, inputs)
        results += [("layer", name, value) for name, value in layers or []]
        notes += [note] if note else []
    stem = os.path.join(job["folder"], tripod.config.backend())
    np.savez(
        stem + ".npz", **{str(i): np.asarray(value) for i, (_, _, value) in enumerate(results)}
    )
    entries = [{"kind": kind, "name": name} for kind, name, _ in results]
    with open(stem + ".json", "w") as f:
        json.dump({"entries": entries, "notes": notes}, f)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        sys.exit("usage: python -m tripod.testing.worker JOB.json (check_backend_parity runs it)")
    with open(argv[0]) as f:
        run(json.load(f))


if __name__ == "__main__":
    main()
