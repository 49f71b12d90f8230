"""`ReduceLROnPlateau`: lower the learning rate when a monitored metric stops improving."""

import warnings

from tripod.training.callbacks.callback import Callback
from tripod.training.callbacks.learning_rate import get_learning_rate, set_learning_rate
from tripod.training.callbacks.monitor import Monitor


class ReduceLROnPlateau(Callback):
    """Multiply the learning rate by `factor` after `patience` epochs without improvement."""

    def __init__(
        self,
        monitor="val_loss",
        factor=0.1,
        patience=10,
        verbose=0,
        mode="auto",
        min_delta=1e-4,
        cooldown=0,
        min_lr=0.0,
        **kwargs,
    ):
        super().__init__()
        if "epsilon" in kwargs:
            min_delta = kwargs.pop("epsilon")
            warnings.warn(
                "ReduceLROnPlateau: `epsilon` is deprecated, use `min_delta` instead.", stacklevel=2
            )
        if kwargs:
            raise TypeError(f"ReduceLROnPlateau: unexpected arguments {sorted(kwargs)}.")
        if factor >= 1.0:
            raise ValueError(
                f"ReduceLROnPlateau does not support a factor >= 1.0. Received factor={factor}"
            )
        self.monitor = monitor
        self.factor = float(factor)
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.min_lr = float(min_lr)
        self._monitor = Monitor("ReduceLROnPlateau", monitor, mode, min_delta)
        self.mode = self._monitor.mode
        self.min_delta = self._monitor.min_delta
        self._reset()

    def _reset(self):
        self.wait = 0
        self.cooldown_counter = 0
        self.best = None

    def on_train_begin(self, logs=None):
        self._reset()
        self._monitor.resolve(self.model)
        self.best = self._monitor.worst()

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        logs["learning_rate"] = get_learning_rate(self.model, "ReduceLROnPlateau")
        current = self._monitor.value(logs)
        if current is None:
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self._monitor.improved(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                self._reduce(epoch, logs["learning_rate"])

    def _reduce(self, epoch, old_lr):
        if old_lr > self.min_lr:
            new_lr = max(old_lr * self.factor, self.min_lr)
            set_learning_rate(self.model, new_lr, "ReduceLROnPlateau")
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new_lr}.")
        self.cooldown_counter = self.cooldown
        self.wait = 0
