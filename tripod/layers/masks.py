"""Masks carried by eager tensors: `get_keras_mask`, `set_keras_mask` and `pack_masks`.

A layer that supports masking attaches its output mask to the eager output tensor, as Keras
does; a tensor type that takes no attribute (a NumPy array, a JAX tracer) keeps it in a side
table for as long as the tensor lives.
"""

import weakref

from tripod.backends.common import tree


def get_keras_mask(x):
    """The mask attached to eager tensor `x` (its `_keras_mask`), or None; for a list, tuple
    or dict of tensors, their masks in that structure (None when none has one)."""
    if isinstance(x, (list, tuple, dict)):
        return pack_masks(x, [get_keras_mask(v) for v in tree.flatten(x)])
    mask = getattr(x, "_keras_mask", None)
    if mask is None and _side_masks:
        mask = _side_masks.get(id(x))
    return mask


def set_keras_mask(x, mask):
    """Attach `mask` to eager tensor `x` as its `_keras_mask`; a tensor that takes no attribute
    (a NumPy array, a JAX tracer) gets it in a side table, kept as long as `x` lives."""
    try:
        x._keras_mask = mask
    except AttributeError:
        try:
            weakref.finalize(x, _side_masks.pop, id(x), None)
        except TypeError:  # a Python or NumPy scalar: nothing to attach a mask to
            return
        _side_masks[id(x)] = mask


#: id(tensor) -> mask, for tensors without a `_keras_mask` attribute (dropped when they die)
_side_masks = {}


def pack_masks(inputs, masks):
    """The masks in the structure of `inputs` (a single mask for a single input)."""
    if not tree.is_nested(inputs):
        return masks[0] if masks else None
    if all(m is None for m in masks):
        return None
    return tree.pack_sequence_as(inputs, masks)
