"""Axis arguments of the normalization layers: validation against an input rank, and the shapes of
per-feature weights."""


def as_axes(axis, layer_name, argument="axis"):
    """`axis` (an int or a list/tuple of ints) as a list of ints; ValueError otherwise."""
    values = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    if not values or not all(isinstance(a, int) and not isinstance(a, bool) for a in values):
        raise ValueError(
            f"{layer_name}: {argument} must be an int or a list of ints, received {axis!r}."
        )
    return values


def resolve(axes, shape, layer_name):
    """The axes as sorted non-negative ints for an input of `shape`, checking range and sizes."""
    rank = len(shape)
    resolved = []
    for a in axes:
        if not -rank <= a < rank:
            raise ValueError(
                f"{layer_name}: axis {a} is out of range for an input of shape {tuple(shape)}."
            )
        resolved.append(a % rank)
    if len(set(resolved)) != len(resolved):
        raise ValueError(
            f"{layer_name}: duplicate axes {axes} for an input of shape {tuple(shape)}."
        )
    for a in resolved:
        if shape[a] is None:
            raise ValueError(
                f"{layer_name}: the size of normalized axis {a} must be known, received input "
                "shape "
                f"{tuple(shape)}."
            )
    return sorted(resolved)


def broadcast_shape(axes, shape):
    """The shape a per-feature weight takes to broadcast against an input of `shape`."""
    return tuple(shape[i] if i in axes else 1 for i in range(len(shape)))


def trailing_or_broadcast_shape(axes, shape):
    """None when weights over the sorted `axes` already broadcast against an input of `shape`
    (the axes are its trailing ones), else the shape they must be reshaped to."""
    if axes == list(range(len(shape) - len(axes), len(shape))):
        return None
    return broadcast_shape(axes, shape)
