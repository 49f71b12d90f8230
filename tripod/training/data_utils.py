"""Small data helpers from `keras.utils`: one-hot labels, normalization, sequence padding."""

import numpy as np

from tripod.backends.common import tree
from tripod.backends.common.keras_tensor import KerasTensor


def to_categorical(x, num_classes=None):
    """Integer class labels as one-hot rows (NumPy), with `num_classes` columns."""
    x = np.asarray(x, dtype="int64")
    shape = x.shape[:-1] if x.ndim > 1 and x.shape[-1] == 1 else x.shape
    x = x.reshape(-1)
    num_classes = int(x.max()) + 1 if num_classes is None else num_classes
    out = np.zeros((x.size, num_classes), dtype="float32")
    out[np.arange(x.size), x] = 1.0
    return out.reshape(shape + (num_classes,))


def normalize(x, axis=-1, order=2):
    """x divided by its `order`-norm along `axis` (zero vectors stay zero)."""
    x = np.asarray(x)
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)


def pad_sequences(
    sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre", value=0.0
):
    """Lists of sequences as one array of shape (count, maxlen), padded and truncated."""
    if padding not in ("pre", "post") or truncating not in ("pre", "post"):
        raise ValueError(
            f"pad_sequences: padding and truncating must be 'pre' or 'post', received {padding!r}, {truncating!r}."
        )
    lengths = [len(s) for s in sequences]
    maxlen = max(lengths, default=0) if maxlen is None else maxlen
    sample_shape = next((np.asarray(s).shape[1:] for s in sequences if len(s)), ())
    out = np.full((len(sequences), maxlen) + sample_shape, value, dtype=dtype)
    for i, seq in enumerate(sequences):
        if not len(seq):
            continue
        seq = np.asarray(seq, dtype=dtype)
        seq = seq[-maxlen:] if truncating == "pre" else seq[:maxlen]
        if padding == "post":
            out[i, : len(seq)] = seq
        else:
            out[i, maxlen - len(seq) :] = seq
    return out


def get_source_inputs(tensor):
    """The `Input` tensors a symbolic tensor was computed from."""
    sources, todo, seen = [], tree.flatten(tensor), set()
    while todo:
        x = todo.pop()
        if not isinstance(x, KerasTensor) or id(x) in seen:
            continue
        seen.add(id(x))
        node = x._keras_history[0]._inbound_nodes[x._keras_history[1]] if x._keras_history else None
        if node is None or node.is_input:
            sources.append(x)
        else:
            todo.extend(node.input_tensors)
    return sources
