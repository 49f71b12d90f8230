"""Normalizing the size/padding/cropping arguments of the reshaping layers."""


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def int_tuple(value, n, layer, arg, minimum=0):
    """`value` (an int, or n ints) as a tuple of n ints >= `minimum`."""
    values = (
        (value,) * n
        if _is_int(value)
        else tuple(value)
        if isinstance(value, (tuple, list))
        else None
    )
    if values is None or len(values) != n or not all(_is_int(v) and v >= minimum for v in values):
        raise ValueError(
            f"{layer}: {arg} must be an integer >= {minimum} or a tuple of {n} of them, received "
            f"{value!r}."
        )
    return values


def pairs(value, n, layer, arg):
    """`value` (an int, n ints, or n pairs of ints) as n (before, after) pairs of ints >= 0."""
    if _is_int(value) or (isinstance(value, (tuple, list)) and all(_is_int(v) for v in value)):
        return tuple((v, v) for v in int_tuple(value, n, layer, arg))
    if isinstance(value, (tuple, list)) and len(value) == n:
        return tuple(int_tuple(v, 2, layer, arg) for v in value)
    raise ValueError(
        f"{layer}: {arg} must be an integer, a tuple of {n} integers or a tuple of {n} pairs of "
        f"integers, received {value!r}."
    )


def spatial_axes(rank, data_format):
    """The spatial axes of a batched input with `rank` spatial dimensions."""
    first = 2 if data_format == "channels_first" else 1
    return tuple(range(first, first + rank))
