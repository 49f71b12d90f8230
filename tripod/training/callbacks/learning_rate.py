"""Reading and setting the optimizer's learning rate from callbacks, as Python floats."""

import numpy as np

from tripod.backends import active


def _optimizer(model, owner):
    optimizer = getattr(model, "optimizer", None)
    if optimizer is None or not hasattr(optimizer, "learning_rate"):
        raise ValueError(f"{owner}: the model's optimizer must have a `learning_rate` attribute.")
    return optimizer


def get_learning_rate(model, owner="callback"):
    """The optimizer's current learning rate as a float."""
    rate = _optimizer(model, owner).learning_rate
    return float(np.asarray(active().convert_to_numpy(getattr(rate, "value", rate))))


def set_learning_rate(model, value, owner="callback"):
    """Give the optimizer the learning rate `value` (a float)."""
    _optimizer(model, owner).learning_rate = float(value)
