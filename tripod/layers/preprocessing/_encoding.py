"""Shared helpers of the preprocessing layers: `output_mode` encodings and host-side inputs."""

import numpy as np

from tripod.backends import active
from tripod.backends.common import frameworks
from tripod.backends.common.keras_tensor import KerasTensor

ops = active()

INT_MODES = ("int",)
DENSE_MODES = ("one_hot", "multi_hot", "count")


def check_choice(layer, argument, value, choices):
    """Raise a ValueError naming the layer and argument when `value` is not one of `choices`."""
    if value not in choices:
        raise ValueError(
            f"{type(layer).__name__} '{layer.name}': {argument} must be one of {list(choices)}, "
            f"received {value!r}."
        )


def check_no_sparse(layer, sparse):
    """Sparse outputs need sparse tensors, which only TensorFlow has; refuse them everywhere."""
    if sparse:
        raise ValueError(f"{type(layer).__name__} '{layer.name}': sparse=True is not supported.")


def encode(indices, output_mode, depth, dtype, idf_weights=None, backend=ops):
    """Integer `indices` in `output_mode`: as they are ("int"), one-hot over a last axis of
    `depth`, or multi-hot / count / tf-idf vectors of `depth` per sample (the last axis of the
    input, or each element of a 1-D input, is one sample's set of tokens), computed with
    `backend`'s ops (a data layer passes its `self.backend`)."""
    if output_mode == "int":
        return indices
    if output_mode == "one_hot":
        if len(indices.shape) > 1 and indices.shape[-1] == 1:
            indices = backend.squeeze(indices, axis=-1)
        return backend.one_hot(indices, depth, dtype=dtype)
    if len(indices.shape) <= 1:
        indices = backend.expand_dims(indices, -1)
    counts = backend.sum(backend.one_hot(indices, depth, dtype=dtype), axis=-2)
    if output_mode == "multi_hot":
        return backend.minimum(counts, backend.ones((), dtype=dtype))
    if output_mode == "tf_idf":
        return backend.multiply(counts, idf_weights)
    return counts


def encoded_shape(input_shape, output_mode, depth):
    """The output shape of `encode` for inputs of `input_shape`."""
    input_shape = tuple(input_shape)
    if output_mode == "int":
        return input_shape
    if output_mode == "one_hot":
        if len(input_shape) > 1 and input_shape[-1] == 1:
            input_shape = input_shape[:-1]
        return input_shape + (depth,)
    if len(input_shape) <= 1:
        return input_shape + (depth,)
    return input_shape[:-1] + (depth,)


def spec(shape, dtype):
    return KerasTensor(tuple(shape), dtype)


def host_array(x):
    """A NumPy array of `x` (strings stay str/object arrays; tensors are copied to the host)."""
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (list, tuple, str, bytes, int, float)):
        return np.asarray(x)
    if frameworks.framework_of(x) == "tensorflow":  # a tf.data element, strings too
        return np.asarray(x.numpy())
    return np.asarray(ops.convert_to_numpy(x))


def iterate_batches(data):
    """The NumPy batches of `data`: an array/tensor/list, or an iterable of batches."""
    if isinstance(data, (np.ndarray, list, tuple)) or ops.is_tensor(data):
        yield host_array(data)
        return
    for batch in data:
        yield host_array(batch[0] if isinstance(batch, tuple) else batch)
