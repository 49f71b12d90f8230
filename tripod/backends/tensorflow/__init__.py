"""The tensorflow backend: tripod's ops on TensorFlow tensors, eager and inside `tf.function`."""

import os
import warnings

from tripod.backends.common import quiet

# TF_ENABLE_ONEDNN_OPTS keeps TensorFlow's default (on, as Keras runs): oneDNN's CPU kernels train
# a ResNet50 2.3x faster than Eigen's, rounding within the tests' tolerances of the reference;
# TF_ENABLE_ONEDNN_OPTS=0 (set before the import) gives Eigen's kernels.
with quiet.environment(TF_CPP_MIN_LOG_LEVEL="2"):  # its C++ start-up chatter, for this import
    import tensorflow as tf
    from tensorflow.python.autograph.core import config as _autograph_config

# (Importing these runs no TensorFlow op: the runtime has not started, so devices can be split.)
from tripod.backends.common import assemble
from tripod.backends.tensorflow.core import Variable


def _split_host_cpu():
    """Split the host CPU into `TRIPOD_NUM_CPU_DEVICES` logical devices (a data-parallel run on
    several devices in one process, for tests), before TensorFlow's runtime starts."""
    text = os.environ.get("TRIPOD_NUM_CPU_DEVICES")
    if not text:
        return
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"TRIPOD_NUM_CPU_DEVICES must be a positive integer, received {text!r}.")
    cpu = tf.config.list_physical_devices("CPU")[0]
    if len(tf.config.get_logical_device_configuration(cpu) or [cpu]) == int(text):
        return
    try:
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration()] * int(text)
        )
    except RuntimeError:
        warnings.warn(
            f"TRIPOD_NUM_CPU_DEVICES={text} is ignored: TensorFlow's runtime had already started "
            "when tripod's tensorflow backend was imported; import tripod first.",
            stacklevel=2,
        )


_split_host_cpu()

NAME = "tensorflow"

# tripod's ops express control flow themselves: autograph must not rewrite tripod's functions
# when a `tf.data` map or a user's `tf.function` calls them (rewriting a preprocessing layer's
# call tree cost about 14 s per map). TensorFlow keeps Keras out of autograph the same way.
_autograph_config.CONVERSION_RULES = (
    _autograph_config.DoNotConvert("tripod"),
) + _autograph_config.CONVERSION_RULES

#: the modules whose `__all__` registers this backend's ops
OP_MODULES = assemble.op_modules(
    __name__,
    [
        "core",
        "elementwise",
        "reductions",
        "creation",
        "arrays",
        "nn",
        "conv",
        "ctc",
        "math",
        "linalg",
        "image",
        "random",
        "hooks",
    ],
)

#: framework exceptions that mean "bad argument"; the assembler reports them as ValueError
NATIVE_ERRORS = (tf.errors.InvalidArgumentError, tf.errors.OutOfRangeError)

__all__ = ["NAME", "NATIVE_ERRORS", "OP_MODULES", "Variable"]
