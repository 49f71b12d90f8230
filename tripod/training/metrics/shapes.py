"""Sample weights shaped like the values they weigh."""

from tripod.backends import active

ops = active()


def broadcast_weights(sample_weight, target, dtype):
    """`sample_weight` (per sample, or per entry) cast to `dtype` and broadcast to `target`'s shape.

    Trailing size-1 axes beyond `target`'s rank are dropped and missing trailing axes added, so
    weights of shape (batch,) or (batch, 1) weigh every entry of their sample.
    """
    if sample_weight is None:
        return ops.ones_like(target, dtype=dtype)
    weights = ops.cast(sample_weight, dtype)
    while len(weights.shape) > len(target.shape) and weights.shape[-1] == 1:
        weights = ops.squeeze(weights, axis=-1)
    while len(weights.shape) < len(target.shape):
        weights = ops.expand_dims(weights, -1)
    return ops.broadcast_to(weights, ops.shape(target))
