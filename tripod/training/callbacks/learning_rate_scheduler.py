"""`LearningRateScheduler`: set the learning rate at the start of each epoch from a schedule."""

import numpy as np

from tripod.backends import active
from tripod.training.callbacks.callback import Callback
from tripod.training.callbacks.learning_rate import get_learning_rate, set_learning_rate


class LearningRateScheduler(Callback):
    """Each epoch, set the learning rate to `schedule(epoch, lr)` (or `schedule(epoch)`)."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None):
        lr = get_learning_rate(self.model, "LearningRateScheduler")
        try:
            new_lr = self.schedule(epoch, lr)
        except TypeError:  # a schedule taking the epoch only
            new_lr = self.schedule(epoch)
        new_lr = _as_float(new_lr)
        set_learning_rate(self.model, new_lr, "LearningRateScheduler")
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {new_lr}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = get_learning_rate(self.model, "LearningRateScheduler")


def _as_float(value):
    """The schedule's result as a float; a clear error if it is not a number."""
    if not isinstance(value, (int, float, np.number, np.ndarray)) and not active().is_tensor(value):
        raise ValueError(f"The output of the `schedule` function should be a float. Got: {value!r}")
    array = np.asarray(active().convert_to_numpy(value))
    if array.size != 1 or array.dtype.kind not in "iuf":
        raise ValueError(f"The output of the `schedule` function should be a float. Got: {value!r}")
    return float(array.reshape(-1)[0])
