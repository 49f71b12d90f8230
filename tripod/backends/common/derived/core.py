"""Core ops written over a backend's other ops."""

from tripod.backends.common.derived import helpers as c

__all__ = ["unstack"]


def unstack(ops, x, num=None, axis=0):
    x = ops.convert_to_tensor(x)
    rank = c.rank(ops, x)
    axis = c.axis_of("unstack", axis, rank)
    size = c.shape(ops, x)[axis]
    if size is None:
        if num is None:
            raise ValueError("ops.unstack: the axis has an unknown size; pass `num`.")
        size = num
    if num is not None and num != size:
        raise ValueError(f"ops.unstack: num={num} does not match the axis size {size}.")
    if size == 0:
        return []
    return [ops.squeeze(part, axis=axis) for part in ops.split(x, size, axis=axis)]
