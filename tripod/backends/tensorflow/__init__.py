"""The tensorflow backend: tripod's ops on TensorFlow tensors, eager and inside `tf.function`."""

import os

# TensorFlow reads these once, when it is first imported: keep its C++ start-up chatter quiet.
# oneDNN's custom CPU kernels announce themselves through a logger these levels do not reach, and
# round differently from the reference; set TF_ENABLE_ONEDNN_OPTS=1 to have them anyway.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import tensorflow as tf
from tensorflow.python.autograph.core import config as _autograph_config

from tripod.backends.common import assemble
from tripod.backends.tensorflow.core import Variable

NAME = "tensorflow"

# tripod's ops express control flow themselves: autograph must not rewrite tripod's functions
# when a `tf.data` map or a user's `tf.function` calls them (rewriting a preprocessing layer's
# call tree cost about 14 s per map). TensorFlow keeps Keras out of autograph the same way.
_autograph_config.CONVERSION_RULES = (
    _autograph_config.DoNotConvert("tripod"),
) + _autograph_config.CONVERSION_RULES

#: op kind (as in `tripod.backends.contract`) -> the module implementing it
KIND_MODULES = assemble.kind_modules(__name__)

#: framework exceptions that mean "bad argument"; the assembler reports them as ValueError
NATIVE_ERRORS = (tf.errors.InvalidArgumentError, tf.errors.OutOfRangeError)

__all__ = ["KIND_MODULES", "NAME", "NATIVE_ERRORS", "Variable"]
