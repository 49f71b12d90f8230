"""Checks of the audio layers' constructor arguments, with errors naming the layer."""

import numpy as np


def check_positive_int(value, what, owner):
    """Raise a ValueError naming `owner` unless `value` (the argument `what`) is an int >= 1."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{owner}: {what} must be a positive integer, received {value!r}.")
