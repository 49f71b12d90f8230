"""The block `slice` and `slice_update` address: starts and sizes checked against a shape."""


def block_slices(starts, sizes, shape):
    """The Python slices taking the block of `sizes` at `starts` (ints) from a tensor of `shape`;
    a ValueError unless there is one start and size per dim and the block lies inside."""
    if len(starts) != len(shape) or len(sizes) != len(shape):
        raise ValueError(
            f"expected {len(shape)} start indices and sizes, "
            f"received {len(starts)} and {len(sizes)}."
        )
    for start, size, dim in zip(starts, sizes, shape):
        if start < 0 or size < 0 or start + size > dim:
            raise ValueError(
                f"the block {list(starts)} + {list(sizes)} lies outside the shape {tuple(shape)}."
            )
    return tuple(slice(start, start + size) for start, size in zip(starts, sizes))
