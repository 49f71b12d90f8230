"""`ModelCheckpoint`: save the model (or its weights) every epoch or every few batches."""

import os

from tripod.training.callbacks.callback import Callback
from tripod.training.callbacks.monitor import Monitor


def check_save_freq(save_freq, allow_false=False):
    """`save_freq` checked: "epoch" or a positive number of batches (or False where allowed)."""
    if save_freq == "epoch" or (allow_false and save_freq is False):
        return save_freq
    if isinstance(save_freq, int) and not isinstance(save_freq, bool) and save_freq > 0:
        return save_freq
    raise ValueError(
        f"Invalid value for argument `save_freq`. Received: save_freq={save_freq!r}. "
        "Expected either 'epoch' or a positive integer."
    )


class ModelCheckpoint(Callback):
    """Save to `filepath` (formatted with `epoch`, `batch` and the logs) during fit."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False,
                 save_weights_only=False, mode="auto", save_freq="epoch",
                 initial_value_threshold=None):  # fmt: skip
        super().__init__()
        self.filepath = os.fspath(filepath)
        self.monitor = monitor
        self.verbose = verbose
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = check_save_freq(save_freq)
        self.wants_batch_hooks = {"train"} if self.save_freq not in ("epoch", False) else False
        self._monitor = Monitor("ModelCheckpoint", monitor, mode)
        self.mode = self._monitor.mode
        self.initial_value_threshold = initial_value_threshold
        self.best = initial_value_threshold
        self._check_extension()
        self._current_epoch = 0
        self._batches_since_save = 0

    def _check_extension(self):
        if self.save_weights_only and not self.filepath.endswith(".weights.h5"):
            raise ValueError(
                "When using `save_weights_only=True` in `ModelCheckpoint`, the filepath provided must "
                f"end in `.weights.h5` (Keras weights format). Received: filepath={self.filepath}"
            )
        if not self.save_weights_only and not self.filepath.endswith((".keras", ".h5")):
            raise ValueError(
                "The filepath provided must end in `.keras` (Keras model format). "
                f"Received: filepath={self.filepath}"
            )

    def on_train_begin(self, logs=None):
        if self.save_best_only:
            self._monitor.resolve(self.model)
            if self.best is None:
                self.best = self._monitor.worst()
        self._batches_since_save = 0

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        self._batches_since_save += 1
        if self._batches_since_save >= self.save_freq:
            self._batches_since_save = 0
            self._save(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._save(epoch, None, logs)

    def _save(self, epoch, batch, logs):
        logs = logs or {}
        path = self._get_file_path(epoch, batch, logs)
        if self.save_best_only:
            current = self._monitor.value(logs)
            if current is None:
                return
            if not self._monitor.improved(current, self.best):
                if self.verbose > 0:
                    print(
                        f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {self.best:.5f}"
                    )
                return
            if self.verbose > 0:
                print(
                    f"\nEpoch {epoch + 1}: {self.monitor} improved from {self.best:.5f} to "
                    f"{current:.5f}, saving model to {path}"
                )
            self.best = current
        elif self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: saving model to {path}")
        directory = os.path.dirname(path)
        if directory:
            os.makedirs(directory, exist_ok=True)
        if self.save_weights_only:
            self.model.save_weights(path)
        else:
            self.model.save(path)

    def _get_file_path(self, epoch, batch, logs):
        """The file path for this save: `filepath` formatted with epoch/batch (from 1) and the logs."""
        fields = dict(logs)
        fields["epoch"] = epoch + 1
        if batch is not None:
            fields["batch"] = batch + 1
        try:
            return self.filepath.format(**fields)
        except KeyError as error:
            raise KeyError(
                f"Failed to format this callback filepath: {self.filepath!r}. Reason: the logs have no "
                f"{error}; available keys are {sorted(fields)}."
            ) from None
