"""numpy indexing keys made ones torch takes: arrays as index tensors, negative-step slices as
flips of the indexed tensor."""

import builtins

import numpy as np
import torch

from tripod.backends.common import variables
from tripod.backends.torch.tensors import convert_to_tensor


def torch_key(x, key):
    """(x, key) such that torch's `x[key]` gives numpy's result for the original pair."""
    key = _key(key)
    if builtins.any(isinstance(k, builtins.slice) and (k.step or 1) < 0 for k in _parts(key)):
        return _flip_negative_steps(x, key)
    return x, key


def _key(key):
    """An indexing key with NumPy arrays, lists of ints and tensors made torch-friendly."""
    if isinstance(key, tuple):
        return tuple(_key(k) for k in key)
    if isinstance(key, (np.ndarray, list, variables.Variable)):
        key = convert_to_tensor(key)
    if isinstance(key, torch.Tensor) and key.dtype != torch.bool:
        return key.long()
    return key


def _parts(key):
    return key if isinstance(key, tuple) else (key,)


def _flip_negative_steps(x, key):
    """`x` flipped along every axis a negative-step slice of `key` walks (torch has no such
    slices), and the key with those slices made positive."""
    parts = _parts(key)
    consumed = [_dims_consumed(k) for k in parts]
    free = x.ndim - builtins.sum(c for c in consumed if c is not None)
    dim, new_parts = 0, []
    for k, c in zip(parts, consumed):
        if isinstance(k, builtins.slice) and (k.step or 1) < 0:
            n = x.shape[dim]
            start, stop, step = k.indices(n)
            x = torch.flip(x, (dim,))
            k = builtins.slice(n - 1 - start, n - 1 - stop, -step)
        new_parts.append(k)
        dim += free if c is None else c
    return x, tuple(new_parts)


def _dims_consumed(k):
    """How many dims of the indexed tensor key part `k` walks (None for the Ellipsis)."""
    if k is Ellipsis:
        return None
    if k is None:
        return 0
    if isinstance(k, torch.Tensor) and k.dtype == torch.bool:
        return k.ndim
    return 1
