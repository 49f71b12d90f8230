"""`BackupAndRestore`: back up training state so that an interrupted fit resumes where it stopped.

The backup is `latest.weights.h5` (`model.save_weights`) plus `training_metadata.json` holding
`{"epoch": e, "batch": b}`: `e` is the epoch to run next, counted from 0. On resuming, the
callback sets `model._initial_epoch = e` in `on_train_begin`; fit reads it from there.
"""

import json
import os

from tripod.distribution import processes
from tripod.training.callbacks.callback import Callback
from tripod.training.callbacks.model_checkpoint import check_save_freq

_WEIGHTS = "latest.weights.h5"
_METADATA = "training_metadata.json"
_PREVIOUS = ".bkp"


class BackupAndRestore(Callback):
    """Back up weights and progress to `backup_dir` every epoch (or `save_freq` batches)."""

    def __init__(
        self, backup_dir, save_freq="epoch", double_checkpoint=False, delete_checkpoint=True
    ):
        super().__init__()
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        self.backup_dir = os.fspath(backup_dir)
        self.save_freq = check_save_freq(save_freq, allow_false=True)
        self.wants_batch_hooks = {"train"} if self.save_freq not in ("epoch", False) else False
        self.double_checkpoint = double_checkpoint
        self.delete_checkpoint = delete_checkpoint
        self._weights_path = os.path.join(self.backup_dir, _WEIGHTS)
        self._metadata_path = os.path.join(self.backup_dir, _METADATA)
        self._current_epoch = 0
        self._batches_since_save = 0

    def _paths(self, previous=False):
        suffix = _PREVIOUS if previous else ""
        return self._weights_path + suffix, self._metadata_path + suffix

    def on_train_begin(self, logs=None):
        model = self.model
        if not model.built:
            raise ValueError(
                "To use the BackupAndRestore callback, the model must be built before fit() is "
                "called: give it an Input, or call model.build(input_shape)."
            )
        if getattr(model, "optimizer", None) is not None and not model.optimizer.built:
            model.optimizer.build(
                model.trainable_variables
            )  # so the backup's optimizer state loads
        self._batches_since_save = 0
        metadata = self._restore()
        if metadata is not None:
            self._current_epoch = int(metadata["epoch"])
            model._initial_epoch = self._current_epoch

    def _restore(self):
        """Load the latest backup (the previous one if the latest is unreadable); its metadata."""
        candidates = [self._paths()]
        if self.double_checkpoint:
            candidates.append(self._paths(previous=True))
        error = None
        for weights, metadata in candidates:
            if not (os.path.exists(weights) and os.path.exists(metadata)):
                continue
            try:
                with open(metadata) as f:
                    progress = json.load(f)
                self.model.load_weights(weights)
                return progress
            except Exception as exc:  # noqa: BLE001 - a damaged backup: try the previous one
                error = exc
        if error is not None:
            raise ValueError(
                f"BackupAndRestore could not restore the backup in {self.backup_dir!r}: {error}"
            ) from error
        return None

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq in ("epoch", False):
            return
        self._batches_since_save += 1
        if self._batches_since_save >= self.save_freq:
            self._batches_since_save = 0
            self._backup(self._current_epoch, batch + 1)

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._backup(epoch + 1, 0)

    def _backup(self, epoch, batch):
        """Write the weights and `{"epoch", "batch"}`; keep the previous pair with double_checkpoint."""
        chief = processes.is_chief()  # every process saves (values gather), process 0 writes
        if chief:
            os.makedirs(self.backup_dir, exist_ok=True)
        if self.double_checkpoint and chief:
            for current, previous in zip(self._paths(), self._paths(previous=True)):
                if os.path.exists(current):
                    os.replace(current, previous)
        self.model.save_weights(self._weights_path)
        if not chief:
            return
        temporary = self._metadata_path + ".tmp"
        with open(temporary, "w") as f:
            json.dump({"epoch": epoch, "batch": batch}, f)
        os.replace(temporary, self._metadata_path)

    def on_train_end(self, logs=None):
        if not (self.delete_checkpoint and processes.is_chief()):
            return
        for path in self._paths() + self._paths(previous=True):
            if os.path.exists(path):
                os.remove(path)
        if os.path.isdir(self.backup_dir) and not os.listdir(self.backup_dir):
            os.rmdir(self.backup_dir)
