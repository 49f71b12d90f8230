"""Validation shared by the random regularization layers."""


def check_rate(rate, layer_name):
    """`rate`, checked to be a number in [0, 1]; ValueError naming the layer otherwise."""
    if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 <= rate <= 1:
        raise ValueError(f"{layer_name}: rate must be a number between 0 and 1, received {rate!r}.")
    return rate
