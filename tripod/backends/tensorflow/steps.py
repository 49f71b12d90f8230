"""`FunctionStep`: a `tf.function` step run through its concrete functions, found by a cheap key
(`FusingStep`: one that also runs several batches in one graph, for `steps_per_execution`).

Calling a `tf.function` re-derives the batch's trace type and searches its cache on every call,
which on a CPU costs about as much as a small model's whole training step (0.2 ms and up, more
again when NumPy arrays are converted through that path). The traced concrete function depends
only on the batch's structure, shapes and dtypes, so the step looks it up here, by that key, and
calls it directly.
"""

import numpy as np
import tensorflow as tf

from tripod.backends.common import fast_paths
from tripod.backends.common.steps import stacked

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
        return self._concrete_for(tensors, key)(tensors)

    def _concrete_for(self, tensors, key):
        concrete = self._concrete.get(key)
        if concrete is None:
            concrete = self._function.get_concrete_function(tensors)
            if len(self._concrete) < MAX_KEYS:
                self._concrete[key] = concrete
        return concrete

    def sync(self):
        """Nothing to do: the step updates the variables in place."""


class FusingStep(FunctionStep):
    """A `FunctionStep` of `fn` (a `tf.function` made with `options`) that also runs several
    batches in one graph (`run_many`, through `_looped`), found by the same kind of key; with
    `join` (predict) it returns every step's outputs joined. With the fast paths off it runs
    one batch per call (`fuses`, `fast_paths.MACHINERY`)."""

    def __init__(self, fn, options, join=False):
        super().__init__(tf.function(fn, **options))
        self.fuses = fast_paths.enabled()
        self._fn = fn
        self._options = {**options, "reduce_retracing": False}  # one exact trace per key
        self._join = join
        self._fused = {}

    def run_many(self, batches):
        """The batches (NumPy arrays nested alike, one shape per leaf) in one call: the last
        step's outputs, or with `join` every step's joined along the batch axis."""
        tensors, key = _tensors_and_key(stacked(batches))
        fused = self._fused.get(key)
        if fused is None:
            # The single step's outputs (traced for one batch) give the loop its output dtypes.
            outputs = self._concrete_for(*_tensors_and_key(batches[0])).structured_outputs
            fused = tf.function(
                _looped(self._fn, outputs, self._join), **self._options
            ).get_concrete_function(tensors)
            if len(self._fused) < MAX_KEYS:
                self._fused[key] = fused
        return fused(tensors)


def _looped(fn, outputs, join):
    """`fn` run over the leading axis of stacked batches by one `tf.while_loop`, one iteration
    at a time (each step reads the variables the one before wrote). Each tensor of `outputs`
    (one step's, as traced) is gathered in a `TensorArray`; returned is the last step's, or with
    `join` every step's joined along the batch axis. Other leaves are constants, kept as they are."""
    flat = tf.nest.flatten(outputs)
    gathered = [i for i, leaf in enumerate(flat) if isinstance(leaf, tf.Tensor)]

    def run(batches):
        count = _leading_size(batches)

        def body(index, *arrays):
            step_outputs = tf.nest.flatten(fn(_slice(batches, index)))
            return (index + 1, *[a.write(index, step_outputs[i]) for a, i in zip(arrays, gathered)])

        arrays = [tf.TensorArray(flat[i].dtype, size=count) for i in gathered]
        _, *arrays = tf.while_loop(
            lambda index, *_: index < count, body, (0, *arrays), parallel_iterations=1
        )
        results = list(flat)
        for array, i in zip(arrays, gathered):
            results[i] = array.concat() if join else array.read(count - 1)
        return tf.nest.pack_sequence_as(outputs, results)

    return run


def _slice(batches, index):
    """Batch `index` of stacked batches."""
    return tf.nest.map_structure(lambda t: None if t is None else t[index], batches)


def _leading_size(batches):
    """How many batches are stacked (static when the shape is known)."""
    first = next(t for t in tf.nest.flatten(batches) if t is not None)
    return first.shape[0] if first.shape[0] is not None else tf.shape(first)[0]
