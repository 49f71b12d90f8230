"""`FunctionStep`: a `tf.function` step run through its concrete functions, found by a cheap key.

Calling a `tf.function` re-derives the batch's trace type and searches its cache on every call,
which on a CPU costs about as much as a small model's whole training step (0.2 ms and up, more
again when NumPy arrays are converted through that path). The traced concrete function depends
only on the batch's structure, shapes and dtypes, so the step looks it up here, by that key, and
calls it directly.
"""

import numpy as np
import tensorflow as tf

#: The most keys remembered; further shapes go through the tf.function's own lookup each call.
MAX_KEYS = 64


class _NoKey(Exception):
    """The batch holds something the key does not describe (a sparse or ragged tensor, a
    variable, an object): the step calls the tf.function itself."""


def _tensors_and_key(x):
    """(`x` with NumPy arrays as tensors, a hashable key of its structure, shapes and dtypes)."""
    if isinstance(x, np.ndarray):
        x = tf.constant(x)
    if isinstance(x, tf.Tensor):
        return x, (x.shape, x.dtype)
    if x is None:
        return None, None
    kind = type(x)
    if kind is tuple or kind is list:
        parts = [_tensors_and_key(item) for item in x]
        return kind(p[0] for p in parts), (kind, tuple(p[1] for p in parts))
    if kind is dict:
        parts = {k: _tensors_and_key(v) for k, v in x.items()}
        key = tuple((k, p[1]) for k, p in parts.items())
        return {k: p[0] for k, p in parts.items()}, (dict, key)
    raise _NoKey


class FunctionStep:
    """Runs a `tf.function` step on a batch (NumPy arrays or tensors, in tuples, lists and dicts)
    through the concrete function traced for the batch's structure, shapes and dtypes.

    A new key asks the tf.function for its concrete function, which traces (or, with
    `reduce_retracing`, relaxes shapes) exactly as calling it would.
    """

    def __init__(self, function):
        self._function = function
        self._concrete = {}

    def __call__(self, batch):
        try:
            tensors, key = _tensors_and_key(batch)
        except _NoKey:
            return self._function(batch)
        concrete = self._concrete.get(key)
        if concrete is None:
            concrete = self._function.get_concrete_function(tensors)
            if len(self._concrete) < MAX_KEYS:
                self._concrete[key] = concrete
        return concrete(tensors)

    def sync(self):
        """Nothing to do: the step updates the variables in place."""
