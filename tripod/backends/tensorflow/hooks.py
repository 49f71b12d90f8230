"""The TensorFlow backend: hooks for layers and training."""

import functools
import warnings

import tensorflow as tf

from tripod.backends import dtypes
from tripod.backends.common import devices, spec
from tripod.backends.common.steps import Step, batch_converter
from tripod.backends.tensorflow import distribution as engines
from tripod.backends.tensorflow import export, interop
from tripod.backends.tensorflow.steps import FusingStep
from tripod.backends.tensorflow.tensors import convert_to_tensor

__all__ = [
    "adopt_variable",
    "compile_step",
    "compute_output_spec",
    "device_scope",
    "distribute_strategy",
    "distribution_engine",
    "export_artifact",
    "export_formats",
    "initialize_processes",
    "list_devices",
    "load_saved_model",
    "process_count",
    "process_index",
    "remat",
    "value_and_grad",
]


def compute_output_spec(fn, *args, **kwargs):
    return spec.output_spec_by_running(
        fn, args, kwargs, lambda shape, dtype: _stand_in(shape, dtype)
    )


def _stand_in(shape, dtype):
    """Zeros of `shape` and `dtype` to run a function on for its output spec (empty strings for
    string inputs, which no cast from a number gives)."""
    if dtype == dtypes.STRING:
        return tf.zeros(shape, tf.string)
    return convert_to_tensor(tf.zeros(shape), dtype)


def value_and_grad(fn, variables, has_aux=False):
    variables = list(variables)

    def run(*args, **kwargs):
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            for v in variables:
                tape.watch(v.native)
            out = fn(*args, **kwargs)
        value = out[0] if has_aux else out
        grads = tape.gradient(
            value, [v.native for v in variables], unconnected_gradients=tf.UnconnectedGradients.ZERO
        )
        # Sparse gradients (embedding lookups) as dense tensors, like every other backend's.
        grads = [tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g for g in grads]
        return out, _averaged_over_replicas(grads)

    return run


def _averaged_over_replicas(grads):
    """Inside a replica of a `tf.distribute` step: the gradients averaged over every replica by
    the strategy's all-reduce (each replica's loss is its rows' mean, so this is the gradient of
    the global batch's loss, as one device would compute it); elsewhere `grads` as they are."""
    if not tf.distribute.has_strategy() or tf.distribute.in_cross_replica_context():
        return grads
    context = tf.distribute.get_replica_context()
    return context.all_reduce(tf.distribute.ReduceOp.MEAN, grads)


def compile_step(fn, state_variables, mode, jit_compile, run_eagerly):
    if run_eagerly:
        return Step(fn, batch_converter(convert_to_tensor))
    # No autograph: tripod's ops express control flow themselves, and autograph's source
    # rewriting costs seconds of tracing per model (an LSTM: 14 s with it, 0.2 s without).
    options = {"jit_compile": jit_compile is True, "reduce_retracing": True, "autograph": False}
    return FusingStep(fn, options, join=mode == "predict")


def device_scope(device_name):
    kind, index = devices.parse_device(device_name)
    return tf.device(f"/{kind.upper()}:{index}")


def remat(f):
    """`f` itself, with a warning once: `tf.recompute_grad` in a traced step that also updates the
    variables it reads can compute gradients from the updated values (in about one trace in
    five here), so on TensorFlow rematerialized calls run plainly: right values, no memory saved."""
    _warn_once_no_remat()
    return f


@functools.cache
def _warn_once_no_remat():
    warnings.warn(
        "tripod.remat / RematScope: on the tensorflow backend calls are not rematerialized (the "
        "values and gradients are right, no memory is saved): tf.recompute_grad can give wrong "
        "gradients in a training step that updates the variables it reads.",
        stacklevel=3,
    )


# -- tripod.distribution, through tf.distribute (distribution.py) ---------------------------------
def list_devices(device_type=None):
    """Every device of the run ("cpu:0", "gpu:1", ...)."""
    return engines.list_devices(device_type)


def initialize_processes(job_addresses, num_processes, process_id):
    """Join a multi-worker run (a `MultiWorkerMirroredStrategy` over a `TF_CONFIG` cluster)."""
    engines.initialize_processes(job_addresses, num_processes, process_id)


def process_count():
    """How many worker processes the run has."""
    return engines.process_count()


def process_index():
    """This worker's index in the run."""
    return engines.process_index()


def distribution_engine(distribution):
    """The tf.distribute engine of a distribution (data parallel only)."""
    return engines.distribution_engine(distribution)


# -- export and interop (export.py, interop.py) ---------------------------------------------------
def export_formats():
    """The formats `model.export` writes on tensorflow: ONNX (tf2onnx) and SavedModel."""
    return export.export_formats()


def export_artifact(format, endpoints, filepath, options):
    """Write the endpoints at `filepath` as `format` (see export.py)."""
    return export.export_artifact(format, endpoints, filepath, options)


def adopt_variable(native, name, trainable):
    """A tripod Variable sharing the storage of the `tf.Variable` `native`."""
    return interop.adopt_variable(native, name, trainable)


def distribute_strategy(engine=None):
    return tf.distribute.get_strategy() if engine is None else engine.strategy


def load_saved_model(filepath):
    """The SavedModel at `filepath`, loaded for `TFSMLayer` (a `LoadedSavedModel`)."""
    return interop.load_saved_model(filepath)
