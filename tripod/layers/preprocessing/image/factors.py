"""Argument checks the geometric augmentation layers share: factor ranges and named choices."""

INTERPOLATIONS = ("nearest", "bilinear")
FILL_MODES = ("reflect", "wrap", "constant", "nearest")


def factor_range(layer, name, factor, low, high, open_low=False, symmetric=False):
    """A (lower, upper) pair from `factor`: a number f gives (max(-f, low), f) ((-f, f) when
    `symmetric`), a pair is sorted. Every number must lie in [low, high] ((low, high] with
    `open_low`), else a ValueError."""
    bound = f"{'(' if open_low else '['}{low}, {high}]"
    problem = (
        f"{type(layer).__name__} '{layer.name}': {name} must be a number or a pair of numbers "
        f"in {bound}, received {factor!r}."
    )
    is_pair = isinstance(factor, (tuple, list))
    values = tuple(factor) if is_pair else (factor,)
    if len(values) != (2 if is_pair else 1) or not all(isinstance(v, (int, float)) for v in values):
        raise ValueError(problem)
    if any(v > high or v < low or (open_low and v == low) for v in values):
        raise ValueError(problem)
    if len(values) == 2:
        return tuple(sorted(float(v) for v in values))
    size = abs(float(factor))
    return (-size if symmetric else max(-size, float(low)), size)


def check_choice(layer, name, value, choices):
    """`value` if it is one of `choices`, else a ValueError naming the layer and the choices."""
    if value not in choices:
        raise ValueError(
            f"{type(layer).__name__} '{layer.name}': {name} must be one of {choices}, received "
            f"{value!r}."
        )
    return value
