"""Rematerialization over tensors only: the non-tensor arguments of a call (flags, None, Python
numbers) are bound before the backend's checkpointing sees the function."""

import functools

from tripod.backends.common import tree


def tensor_only(f, is_tensor, checkpoint):
    """`f(*args, **kwargs)` computed by `checkpoint(g)(*tensors)`, where `g` takes just the tensor
    leaves of the arguments and puts the other leaves back in place."""

    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        leaves = tree.flatten((args, kwargs))
        slots = [i for i, leaf in enumerate(leaves) if is_tensor(leaf)]

        def on_tensors(*tensors):
            filled = list(leaves)
            for i, tensor in zip(slots, tensors):
                filled[i] = tensor
            inner_args, inner_kwargs = tree.pack_sequence_as((args, kwargs), filled)
            return f(*inner_args, **inner_kwargs)

        return checkpoint(on_tensors)(*[leaves[i] for i in slots])

    return wrapped
