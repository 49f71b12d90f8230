"""Run an exported artifact the way a deployment would: in a process that never imports tripod.

    python serve_artifact.py FORMAT ARTIFACT INPUTS.npz OUTPUTS.npz [--endpoint NAME]
        [--inputs NAME ...] [--outputs NAME ...]

INPUTS.npz holds arrays "<k>/<i>": input set k (a call; several sets check several batch
sizes in one process), the artifact's i-th input (named by --inputs). OUTPUTS.npz receives
"<k>/<j>", the j-th output in the order of the artifact's outputs (ONNX, torch) or of --outputs
(a SavedModel signature returns a dict). It prints a JSON line naming the frameworks
the run imported, so a test can check that tripod was not among them.

This file is run as a script by `tripod.export.verify` and the tests; it imports nothing from
tripod (so it may import any framework, unlike tripod's own modules).
"""

import argparse
import json
import sys

import numpy as np


def onnx_runner(path, args):
    """A function running the ONNX graph in onnxruntime, fed by the graph's own input names."""
    import onnxruntime

    session = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
    names = [node.name for node in session.get_inputs()]
    if args.inputs and names != args.inputs:
        raise SystemExit(f"ONNX input names {names} != expected {args.inputs}")
    return lambda arrays: session.run(None, dict(zip(names, arrays)))


def saved_model_runner(path, args):
    """A function calling the SavedModel signature `--endpoint`, outputs in `--outputs` order."""
    import tensorflow as tf

    signature = tf.saved_model.load(path).signatures[args.endpoint]

    def run(arrays):
        result = signature(**{name: tf.constant(a) for name, a in zip(args.inputs, arrays)})
        return [result[name].numpy() for name in (args.outputs or sorted(result))]

    return run


def torch_program_runner(path, args):
    """A function calling the `torch.export` program saved at `path`."""
    import torch

    module = torch.export.load(path).module()

    def run(arrays):
        with torch.no_grad():
            outputs = module(*[torch.from_numpy(a) for a in arrays])
        outputs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
        return [o.detach().numpy() for o in outputs]

    return run


RUNNERS = {"onnx": onnx_runner, "tf_saved_model": saved_model_runner,
           "torch": torch_program_runner}  # fmt: skip


def read_set(data, k):
    """Set `k` of an npz file of "<k>/<i>" arrays, as a list in order of i."""
    count = sum(key.startswith(f"{k}/") for key in data.files)
    return [data[f"{k}/{i}"] for i in range(count)]


def main(argv=None):
    """Parse the command line, run the artifact, write its outputs."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("format", choices=sorted(RUNNERS))
    parser.add_argument("artifact")
    parser.add_argument("inputs_file")
    parser.add_argument("outputs_file")
    parser.add_argument("--endpoint", default="serve")
    parser.add_argument("--inputs", nargs="*", default=[])
    parser.add_argument("--outputs", nargs="*", default=[])
    args = parser.parse_args(argv)
    run = RUNNERS[args.format](args.artifact, args)
    results = {}
    with np.load(args.inputs_file) as data:
        sets = 1 + max(int(key.split("/")[0]) for key in data.files)
        for k in range(sets):
            outputs = run(read_set(data, k))
            results.update({f"{k}/{j}": np.asarray(o) for j, o in enumerate(outputs)})
    np.savez(args.outputs_file, **results)
    frameworks = ("tripod", "torch", "jax", "tensorflow", "onnxruntime")
    print(json.dumps({"imported": [name for name in frameworks if name in sys.modules]}))


if __name__ == "__main__":
    main()
