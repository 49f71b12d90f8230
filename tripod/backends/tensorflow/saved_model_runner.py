"""Run a TensorFlow SavedModel's serving signature, for `tripod/export/serve_artifact.py`.

Loaded by file path in a process without tripod: it imports nothing from tripod.
"""

import tensorflow as tf


def saved_model_runner(path, job):
    """A function calling the signature `job.endpoint` on a list of arrays (named by
    `job.inputs`), returning its outputs in the order of `job.outputs`."""
    signature = tf.saved_model.load(path).signatures[job.endpoint]

    def run(arrays):
        result = signature(**{name: tf.constant(a) for name, a in zip(job.inputs, arrays)})
        return [result[name].numpy() for name in (job.outputs or sorted(result))]

    return run
