"""Argument checks of the loss ops, shared by the backends whose tensors follow NumPy's API."""

from tripod.backends.common import errors


def check_same_shape(target, output):
    """A ValueError unless `target` and `output` have the same shape."""
    if target.shape != output.shape:
        raise ValueError(
            "target and output must have the same shape, "
            f"received {target.shape} and {output.shape}."
        )


def sparse_target(xp, target, output, axis):
    """(target, axis) of sparse_categorical_crossentropy: `axis` made non-negative and integer
    `target` checked to hold one class per `output` row (a size-1 class axis is squeezed).

    `xp` is the array module (numpy or jax.numpy) of the `target` and `output` tensors.
    """
    axis = errors.check_axis("sparse_categorical_crossentropy", axis, output.ndim)
    if target.ndim == output.ndim and target.shape[axis] == 1:
        target = xp.squeeze(target, axis=axis)
    if target.shape != output.shape[:axis] + output.shape[axis + 1 :]:
        raise ValueError(
            f"target shape {target.shape} must equal output shape {output.shape} "
            f"without axis {axis}."
        )
    return target, axis
