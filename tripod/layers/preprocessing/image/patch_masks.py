"""Random rectangular patches, as boolean masks over a batch of images (CutMix, RandomErasing)."""

from tripod.layers.preprocessing import random_draws


def patch_bounds(ops, key, batch, length, ratio):
    """(start, end) float vectors of `batch` patches spanning `ratio` (per image) of `length`,
    placed uniformly inside it."""
    length = ops.cast(length, "float32")
    span = ops.multiply(ratio, length)
    start = ops.multiply(random_draws.uniform(ops, key, (batch,)), ops.subtract(length, span))
    return start, ops.add(start, span)


def patch_masks(ops, size, x_bounds, y_bounds, data_format):
    """bool masks (batch, H, W, 1) — (batch, 1, H, W) channels first — True on the pixels whose
    row lies in [y0, y1) and column in [x0, x1)."""
    height, width = size
    rows = ops.reshape(ops.cast(ops.arange(height), "float32"), (1, -1, 1))
    cols = ops.reshape(ops.cast(ops.arange(width), "float32"), (1, 1, -1))
    inside = None
    for grid, (start, end) in ((rows, y_bounds), (cols, x_bounds)):
        start, end = ops.reshape(start, (-1, 1, 1)), ops.reshape(end, (-1, 1, 1))
        within = ops.logical_and(ops.greater_equal(grid, start), ops.less(grid, end))
        inside = within if inside is None else ops.logical_and(inside, within)
    return ops.expand_dims(inside, -1 if data_format == "channels_last" else 1)
