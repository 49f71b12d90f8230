"""`ModelCheckpoint`: save the model (or its weights) every epoch or every few batches."""

import os
import warnings

import numpy as np

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
    """Save the model (or its weights) to `filepath` during `fit`.

    `filepath` may hold format fields filled at each save from `epoch` (counted from 1),
    `batch` and the logs, e.g. "model-{epoch:02d}-{val_loss:.2f}.keras"; a fixed name is
    overwritten, so with `save_best_only` it always holds the best model so far.

    Args:
        filepath: str or path-like ending in ".keras" (or ".weights.h5" with
            `save_weights_only`).
        monitor: str, the log `save_best_only` compares (default "val_loss").
        verbose: int, 1 prints a line at each save.
        save_best_only: bool, save only when `monitor` improves on the best seen.
        save_weights_only: bool, save only the weights (`model.save_weights`).
        mode: "min", "max" or "auto" (decided from the metric's name: accuracies and AUC
            are maximized, losses and errors minimized); an unknown mode warns and means "auto".
        save_freq: "epoch" (save at the end of each epoch) or an int: save every that many
            batches.
        initial_value_threshold: float, the value `monitor` must beat for the first save.

    Raises:
        ValueError: a `filepath` suffix that does not fit `save_weights_only`, or an invalid
            `save_freq`.

    Examples:
        >>> import os
        >>> model = tripod.Sequential([tripod.Input((2,)), tripod.layers.Dense(1)])
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> checkpoint = tripod.callbacks.ModelCheckpoint("model-{epoch}.keras", monitor="loss")
        >>> _ = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, callbacks=[checkpoint],
        ...               verbose=0)
        >>> sorted(name for name in os.listdir() if name.endswith(".keras"))
        ['model-1.keras', 'model-2.keras']
    """

    def __init__(
        self,
        filepath,
        monitor="val_loss",
        verbose=0,
        save_best_only=False,
        save_weights_only=False,
        mode="auto",
        save_freq="epoch",
        initial_value_threshold=None,
    ):
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
        self._last_batch = None

    def _check_extension(self):
        if self.save_weights_only and not self.filepath.endswith(".weights.h5"):
            raise ValueError(
                "When using `save_weights_only=True` in `ModelCheckpoint`, the filepath provided must "
                f"end in `.weights.h5` (Keras weights format). Received: filepath={self.filepath}"
            )
        if not self.save_weights_only and not self.filepath.endswith((".keras", ".h5")):
            raise ValueError(
                "The filepath provided must end in `.keras` (Keras model format) or `.h5` (legacy "
                f"HDF5 format). Received: filepath={self.filepath}"
            )

    def on_train_begin(self, logs=None):
        if self.save_best_only:
            self._monitor.resolve(self.model)
        self._batches_since_save = 0
        self._last_batch = None

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        # Batches since the last call: more than one with steps_per_execution > 1.
        new_epoch = self._last_batch is None or batch <= self._last_batch
        self._batches_since_save += batch + 1 if new_epoch else batch - self._last_batch
        self._last_batch = batch
        if self._batches_since_save >= self.save_freq:
            self._batches_since_save = 0
            self._save(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._save(epoch, None, logs)

    def _should_save(self, epoch, logs, path):
        """Whether to save now: always, unless `save_best_only` and the monitored value did not
        improve (a missing or non-scalar value saves anyway, with a warning, as in Keras)."""
        if not self.save_best_only:
            self._say(f"\nEpoch {epoch + 1}: saving model to {path}")
            return True
        current = logs.get(self.monitor)
        if current is None or np.ndim(current) > 0:
            warnings.warn(
                f"ModelCheckpoint can save the best model only when `{self.monitor}` is in the "
                f"logs as a scalar; received {current!r}. Saving anyway.",
                stacklevel=3,
            )
            return True
        current = float(current)
        best = "None" if self.best is None else f"{self.best:.5f}"
        if self.best is not None and not self._monitor.improved(current, self.best):
            self._say(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {best}")
            return False
        self._say(
            f"\nEpoch {epoch + 1}: {self.monitor} improved from {best} to {current:.5f}, "
            f"saving model to {path}"
        )
        self.best = current
        return True

    def _say(self, message):
        if self.verbose > 0:
            print(message)

    def _save(self, epoch, batch, logs):
        logs = logs or {}
        path = self._get_file_path(epoch, batch, logs)
        if not self._should_save(epoch, logs, path):
            return
        if os.path.isdir(path):
            raise IsADirectoryError(
                "ModelCheckpoint: the filepath must name a file, but it is an existing folder: "
                f"{path}"
            )
        directory = os.path.dirname(path)
        if directory:
            os.makedirs(directory, exist_ok=True)
        if self.save_weights_only:
            self.model.save_weights(path, overwrite=True)
        else:
            self.model.save(path, overwrite=True)
        self._say(f"\nEpoch {epoch + 1}: finished saving model to {path}")

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
